from webkit import App

app = App(__name__)


@app.route("/")
def index():
    return "ok"
