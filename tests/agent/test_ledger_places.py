"""One place, one hit id, however many searches find it at once: the ids are what a reason
counts ("this code relies on it in N places")."""

from __future__ import annotations

import threading

from depbot.agent.ledger import Ledger


def test_searches_running_at_once_give_one_place_one_id():
    ledger = Ledger()
    start = threading.Barrier(8)
    got: list[tuple[str, bool]] = []

    def search() -> None:
        start.wait()
        for line in range(1, 200):
            got.append(ledger.place_id("config/rules.js", line, 5))

    threads = [threading.Thread(target=search) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = {hid for hid, _ in got}
    assert len(ids) == 199  # one id per place
    assert sum(fresh for _, fresh in got) == 199  # each place new exactly once
    assert ledger.place_id("config/rules.js", 1, 5)[1] is False
    assert ledger.place_id("config/rules.js", 1, 6)[1] is True  # another column, another place
