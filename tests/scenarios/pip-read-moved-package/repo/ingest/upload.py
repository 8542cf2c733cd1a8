"""Ship the nightly batch to the archive bucket."""

from tidewave import Pipeline
from tidewave.sinks import S3Sink


def build(bucket: str) -> Pipeline:
    pipe = Pipeline(name="nightly")
    pipe.add_sink(S3Sink(bucket=bucket, prefix="nightly/"))
    return pipe
