from flask import Flask

from atlas.tiles import grid_for

app = Flask(__name__)


@app.get("/grid/<int:zoom>")
def grid(zoom: int):
    return {"cells": grid_for((-180, -85, 180, 85), zoom)}
