from webkit import status


def is_fine(code):
    return code in (status.OK, status.GONE_OK)
