from formschema import Schema


class JsonSchema(Schema):
    """Schemas that render to JSON."""

    def render(self, obj):
        return self.dump(obj)
