from markupsafe import Markup, escape, soft_unicode


def subject_line(name, count):
    return soft_unicode(f"{name}: {count} new messages")


def body(name, items):
    rows = Markup("").join(Markup("<li>{}</li>").format(escape(i)) for i in items)
    return Markup("<p>Hello {}</p><ul>{}</ul>").format(escape(name), rows)
