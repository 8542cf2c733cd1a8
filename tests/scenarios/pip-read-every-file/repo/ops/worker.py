from metricsy import Counter

JOBS_DONE = Counter("jobs_done")


def handle(job) -> None:
    job.run()
    JOBS_DONE.bump()
