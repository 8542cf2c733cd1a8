"""Render pages with whatever quillkit is installed (2.5 up)."""

try:
    from quillkit import render_text
except ImportError:  # quillkit < 2.6
    from quillkit import render_plain as render_text


def page(source: str) -> str:
    return render_text(source, width=88)
