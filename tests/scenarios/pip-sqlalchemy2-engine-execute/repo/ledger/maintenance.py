from .db import engine


def vacuum() -> None:
    engine.execute("VACUUM")
