def price(amount: int, tax: float) -> float:
    return round(amount * (1 + tax), 2)
