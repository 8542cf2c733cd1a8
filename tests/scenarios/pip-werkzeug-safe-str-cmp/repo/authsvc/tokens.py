import hmac

from werkzeug.security import generate_password_hash


def same(a: str, b: str) -> bool:
    # safe_str_cmp() used to live here; hmac does the same job
    return hmac.compare_digest(a, b)


def hash_password(pw: str) -> str:
    return generate_password_hash(pw)
