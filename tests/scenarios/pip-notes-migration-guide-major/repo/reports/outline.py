"""The outline of a document: its headings, in order."""

import quillparse


def outline(path):
    doc = quillparse.parse_file(path)
    return [node.text for node in doc.walk() if node.kind == "heading"]
