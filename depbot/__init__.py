"""depbot: dependency-upgrade triage that tells you whether a breaking change touches your code."""

__version__ = "0.1.0"
