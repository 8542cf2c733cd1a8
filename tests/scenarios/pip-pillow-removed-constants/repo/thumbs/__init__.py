"""Thumbnails for the product catalogue."""
