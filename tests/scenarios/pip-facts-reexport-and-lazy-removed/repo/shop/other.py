from webkit import quote


def q(text):
    return quote(text)
