def send(body: bytes) -> None:
    print("sending", len(body))
