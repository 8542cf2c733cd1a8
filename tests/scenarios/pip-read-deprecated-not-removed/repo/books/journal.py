"""Posting the day's sales into the company ledger."""

from __future__ import annotations

from decimal import Decimal

from ledgerly import open_ledger


def post_sales(path: str, sales: list[tuple[str, Decimal]]) -> Decimal:
    ledger = open_ledger(path)
    for account, amount in sales:
        ledger.post_entry(account, amount)
    return ledger.total(currency="EUR")
