from sched import app


@app.before_first
def warm():
    return None
