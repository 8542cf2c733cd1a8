import tidyconf


def load(path):
    return tidyconf.load_file(path, strict=True)
