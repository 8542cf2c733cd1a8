from inventory.report import low_stock


def test_low_stock():
    items = [{"sku": "a", "count": 2}, {"sku": "b", "count": 9}]
    assert [i["sku"] for i in low_stock(items, 5)] == ["a"]
