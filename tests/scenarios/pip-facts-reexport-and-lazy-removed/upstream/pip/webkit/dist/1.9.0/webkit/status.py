import warnings

OK = 200
GONE = 410
REDIRECT = 302


def __getattr__(name):
    old = {"GONE_OK": "GONE", "REDIRECT_OK": "REDIRECT"}
    if name in old:
        warnings.warn(f"{name} is deprecated, use {old[name]}", DeprecationWarning)
        return globals()[old[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
