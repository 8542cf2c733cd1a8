"""The API model of a Python release: griffe's static model of its modules (nothing run),
module ``__getattr__`` and lazy loaders, deprecation warnings, names that moved."""
