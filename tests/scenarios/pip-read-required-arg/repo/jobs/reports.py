import queuebird


def run(url: str) -> None:
    for message in queuebird.consume(url, "reports", visibility_timeout=600):
        print(message.body)
        message.ack()
