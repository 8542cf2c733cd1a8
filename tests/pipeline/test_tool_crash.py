"""#28 item 11: a tool that crashed on hostile input (RecursionError from a package.json
100,000 deep, MemoryError from a huge expression) is a failure: the unknown it leaves makes
the run degraded, and the run says which tool crashed. It is not "not settled by the facts"."""

from __future__ import annotations

import pytest

from depbot.core.errors import ToolError
from depbot.pipeline.outcome import judge
from depbot.pipeline.watch import ToolWatch
from depbot.records.update import Update
from depbot.records.verdict import Verdict

DEEP = Update("npm", "deeplib", "1.0.0", "2.0.0")
FINE = Update("npm", "finelib", "1.0.0", "1.0.1")


class Services:
    def api_diff(self, update: Update):
        if update.package == "deeplib":
            raise RecursionError("maximum recursion depth exceeded")
        return "compared"

    def where_imported(self, ecosystem: str, package: str):
        raise MemoryError if package == "deeplib" else ToolError("no such package here")


def test_a_crashed_tool_makes_its_unknown_a_failure_and_the_run_degraded():
    watch = ToolWatch(lambda _line: None)
    services = watch.wrap(Services(), total=2)
    with pytest.raises(RecursionError):
        services.api_diff(DEEP)
    with pytest.raises(MemoryError):
        services.where_imported("npm", "deeplib")
    assert services.api_diff(FINE) == "compared"
    with pytest.raises(ToolError):  # the model asked badly: nothing crashed
        services.where_imported("npm", "finelib")
    verdicts = [Verdict(DEEP, "unknown", "the facts were not had"),
                Verdict(FINE, "unknown", "the notes do not exist")]  # fmt: skip
    assert [watch.cause(v) for v in verdicts] == ["failure", "no_facts"]
    outcome = judge(verdicts, failures=watch.failures_of(verdicts))
    assert outcome.degraded
    assert "api_diff crashed (RecursionError)" in " ".join(outcome.because)
