"""Inventory service: stock levels per warehouse."""
