import quillkit


def preview(source: str) -> str:
    if quillkit.VERSION < (2, 6):
        return quillkit.render_plain(source)
    else:
        return quillkit.render_text(source, width=60)
