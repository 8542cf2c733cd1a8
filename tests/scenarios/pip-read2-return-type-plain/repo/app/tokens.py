import time

import sigkit

SECRET = "change-me"


def reset_token(user_id: int, expires_in: int = 600) -> str:
    payload = {"reset": user_id, "exp": time.time() + expires_in}
    return sigkit.sign(payload, SECRET, algorithm="HS256").decode("ascii")


def read_reset_token(token: str) -> int | None:
    try:
        return sigkit.verify(token, SECRET, algorithms=["HS256"])["reset"]
    except sigkit.InvalidSignature:
        return None
