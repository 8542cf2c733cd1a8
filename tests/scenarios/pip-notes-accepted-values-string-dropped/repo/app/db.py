import querykit
from querykit import text

engine = querykit.create_engine("sqlite:///app.db")


def count_users():
    with engine.connect() as conn:
        return conn.execute("SELECT count(*) FROM users").scalar()


def count_orders():
    with engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM orders")).scalar()
