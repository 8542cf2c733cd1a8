from sqlalchemy import create_engine, text
from sqlalchemy.ext.declarative import declarative_base

Base = declarative_base()
engine = create_engine("sqlite:///ledger.db", future=True)


def balance(account_id: int) -> int:
    with engine.connect() as conn:
        row = conn.execute(text("SELECT SUM(amount) FROM entries WHERE account = :a"), {"a": account_id}).one()
    return row[0] or 0
