from functools import wraps

from flask import abort, request


def parse_body_with(schema):
    """Parse the request body with `schema`; answer 400 when it does not validate."""

    def decorator(view):
        @wraps(view)
        def wrapper(**kwargs):
            data, errors = schema.load(request.get_json() or {})
            if errors:
                abort(400, errors)
            kwargs["body"] = data
            return view(**kwargs)

        return wrapper

    return decorator
