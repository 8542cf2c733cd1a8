from webkit import App, Safe

app = App()


def banner(text):
    return Safe("<b>%s</b>" % text)
