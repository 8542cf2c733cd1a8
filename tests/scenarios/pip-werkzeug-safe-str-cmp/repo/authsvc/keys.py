import os

from werkzeug.security import safe_str_cmp

API_KEY = os.environ.get("AUTHSVC_KEY", "")


def valid(candidate: str) -> bool:
    return bool(API_KEY) and safe_str_cmp(candidate, API_KEY)
