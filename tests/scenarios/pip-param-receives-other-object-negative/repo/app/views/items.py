from flask import Blueprint, jsonify

from app.schemas.legacy import LegacyParser
from app.utils.decorators import parse_body_with

bp = Blueprint("items", __name__)


@bp.route("/items", methods=["POST"])
@parse_body_with(LegacyParser())
def create_item(body):
    return jsonify(body), 201
