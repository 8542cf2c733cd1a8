"""A draft cites every file that uses a broken API (#15 §3, rule 9), even trimmed."""

from __future__ import annotations

import re

from depbot.output.drafts import BODY_LIMIT, PUBLISH_RESERVE, render_draft
from depbot.records.verdict import Hit
from tests.helpers.samples import urllib3_verdict


def test_a_trimmed_draft_still_cites_every_file():
    many = [Hit(f"h{i}", "app/big.py", i, "x = old_api(" + "a" * 150 + ")") for i in range(1, 4000)]
    few = [Hit("k1", "app/small.py", 7, "old_api()"), Hit("k2", "zz/last.py", 3, "old_api()")]
    d = render_draft(urllib3_verdict(hits=many + few))
    assert len(d.body) <= BODY_LIMIT - PUBLISH_RESERVE
    cited = set(re.findall(r"^- `([\w/]+\.py):\d+`", d.body, re.M))
    assert cited == {"app/big.py", "app/small.py", "zz/last.py"}
    assert "breaks 4,001 call sites in 3 files" in d.title
