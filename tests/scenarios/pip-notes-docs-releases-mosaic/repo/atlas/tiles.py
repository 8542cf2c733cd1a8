"""Tile grids for the atlas map server."""

from mosaictile import legacy_grid
from mosaictile.project import to_web_mercator


def grid_for(bounds, zoom):
    """The tile grid covering ``bounds`` at ``zoom``."""
    grid = legacy_grid(bounds, levels=zoom + 1)
    return [to_web_mercator(cell) for cell in grid.cells(zoom)]
