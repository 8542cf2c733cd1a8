from tidewave import Pipeline
from tidewave.sinks import LocalSink


def build_local(folder: str) -> Pipeline:
    pipe = Pipeline(name="local")
    pipe.add_sink(LocalSink(folder))
    return pipe
