"""Plain-text stock report."""

from __future__ import annotations

from dateutil import parser
from tabulate import tabulate


def stock_table(items: list[dict]) -> str:
    rows = [
        (i["sku"], i["warehouse"], i["count"], parser.isoparse(i["counted_at"]).date())
        for i in items
    ]
    return tabulate(rows, headers=["SKU", "Warehouse", "Count", "Counted"], tablefmt="github")


def low_stock(items: list[dict], threshold: int) -> list[dict]:
    return [i for i in items if i["count"] < threshold]
