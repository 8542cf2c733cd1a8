from svc.settings import create_app

app = create_app()


@app.route("/ping")
def ping():
    return {"ok": True}
