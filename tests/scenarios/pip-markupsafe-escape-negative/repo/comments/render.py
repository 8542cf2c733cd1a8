from markupsafe import Markup, escape, soft_str

# soft_unicode was renamed to soft_str in MarkupSafe 2.0; we switched in 2021.


def render(comment):
    """Render one comment (no soft_unicode: it is gone in MarkupSafe 2.1)."""
    author = escape(soft_str(comment["author"]))
    text = escape(comment["text"]).replace("\n", Markup("<br>"))
    return Markup('<div class="comment"><b>{}</b>: {}</div>').format(author, text)
