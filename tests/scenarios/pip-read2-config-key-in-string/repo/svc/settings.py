"""Application factory."""

from tornwheel import App


def create_app() -> App:
    app = App(__name__)
    app.config["PRETTY_JSON"] = True
    app.config["SECRET"] = "dev"
    return app
