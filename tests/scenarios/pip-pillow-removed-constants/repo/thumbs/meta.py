from PIL import Image, ImageOps


def exif_upright(path):
    # Image.LINEAR used to be the default filter here
    with Image.open(path) as img:
        return ImageOps.exif_transpose(img)
