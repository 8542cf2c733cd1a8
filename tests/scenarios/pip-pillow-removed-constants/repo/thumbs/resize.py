from __future__ import annotations

from pathlib import Path

from PIL import Image

SIZES = {"small": (128, 128), "large": (512, 512)}


def thumbnail(src: Path, dest: Path, size: str = "small") -> None:
    with Image.open(src) as img:
        img = img.convert("RGB")
        img = img.resize(SIZES[size], Image.ANTIALIAS)
        img.save(dest, "JPEG", quality=85)
