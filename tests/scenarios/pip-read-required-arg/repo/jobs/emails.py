import queuebird

from jobs.mailer import send


def run(url: str) -> None:
    for message in queuebird.consume(url, "emails", prefetch=10):
        send(message.body)
        message.ack()
