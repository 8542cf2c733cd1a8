from formschema import fields

from app.schemas.base import JsonSchema


class NewItemSchema(JsonSchema):
    name = fields.String(required=True)
    price = fields.Integer(required=True)
