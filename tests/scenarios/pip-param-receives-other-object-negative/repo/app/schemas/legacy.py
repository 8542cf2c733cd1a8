class LegacyParser:
    """The project's own parser: returns (data, errors) like the old schemas did."""

    def load(self, payload):
        return dict(payload), {}
