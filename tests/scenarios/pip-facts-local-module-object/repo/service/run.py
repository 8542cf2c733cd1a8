from server import app
from store import db


@app.before_first
def create_tables():
    db.create_all()


if __name__ == "__main__":
    app.run(port=5000)
