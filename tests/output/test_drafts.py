"""Draft rendering: pure, so these tests build verdicts and read the Markdown."""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from depbot.output.drafts import (
    BODY_LIMIT,
    PUBLISH_RESERVE,
    RepoLink,
    content_digest,
    draft_id,
    parse_draft_file,
    parse_marker,
    render_draft,
    render_step_summary,
    verdict_table,
    web_url_from_api,
    with_digest,
)
from depbot.output.mdsafe import ZWSP, neutralize
from depbot.records.accounting import Accounting, ItemAccount
from depbot.records.update import Update
from depbot.records.verdict import BreakingChange, Hit, Verdict
from tests.helpers.samples import CHANGES_URL, URLLIB3_QUOTE, simple_verdict, urllib3_verdict

SHA = "3f2c1e9a7b5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b"
CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)


def prose(body: str) -> str:
    """The body without code spans: what GitHub autolinks and mentions in."""
    return CODE.sub("", body)


def test_title_says_the_impact():
    v = urllib3_verdict()
    assert render_draft(v).title == "urllib3 1.26.18 → 2.0.7 breaks 1 call site in 1 file"
    v.hits = [
        Hit("h1", "a.py", 3, "x"),
        Hit("h2", "a.py", 9, "y"),
        Hit("h3", "b.py", 1, "z"),
        Hit("h4", "b.py", 1, "z"),  # the same place twice counts once
    ]
    assert render_draft(v).title == "urllib3 1.26.18 → 2.0.7 breaks 3 call sites in 2 files"
    v.hits = []
    assert "has breaking changes" in render_draft(v).title


def test_a_title_citing_fewer_places_than_the_searches_found_says_so():
    # `conclude` cites at most 50 hits: a search that found 120 is not "breaks 50"
    v = urllib3_verdict()
    v.hits = [Hit(f"h{i}", f"t{i}.py", 1, "x") for i in range(50)]
    v.accounting = Accounting(items=(ItemAccount("2.0.0", "remove x", "searched", ("x",), 120),))
    d = render_draft(v)
    assert (
        d.title
        == "urllib3 1.26.18 → 2.0.7 breaks 50 call sites in 50 files cited, of 120 places found"
    )
    assert "the searches found 120 places in all" in d.body
    v.accounting = Accounting(items=(ItemAccount("2.0.0", "remove x", "searched", ("x",), 50),))
    assert render_draft(v).title.endswith("breaks 50 call sites in 50 files")


def test_draft_identity_marker_and_file_name():
    d = render_draft(urllib3_verdict())
    assert d.id == "pip-urllib3-2.0.7"
    assert d.path == "drafts/pip-urllib3-2.0.7.md"
    assert d.key == "pip/urllib3@2.0.7"
    assert d.marker == "<!-- depbot: pip/urllib3@2.0.7 -->"
    assert d.body.rstrip().endswith(d.marker)
    assert parse_marker(d.body) == "pip/urllib3@2.0.7"
    scoped = Update("npm", "@octokit/rest", "19.0.0", "20.0.1")
    assert draft_id(scoped) == "npm-octokit-rest-20.0.1"
    odd = Update("pip", "Weird..Name", "1.0", "2.0")
    assert re.fullmatch(r"[a-z0-9._-]+", draft_id(odd))


def test_sections_quote_and_evidence():
    body = render_draft(urllib3_verdict()).body
    for heading in ("## What broke", "## Where our code uses it", "## Suggested fix"):
        assert heading in body
    assert "## Checklist" in body and "- [ ] Update `statuspoller/http.py` (1 call site)" in body
    # the changelog quoted verbatim as a blockquote, linked to where it was read
    for line in URLLIB3_QUOTE.split("\n"):
        assert f"> {line}" in body
    assert f"[CHANGES.rst]({CHANGES_URL})" in body
    assert "- `statuspoller/http.py:26`: `method_whitelist=_RETRYABLE_METHODS,`" in body
    assert "major update" in body and "`requirements.txt`" in body
    assert "method_whitelist" in body and "allowed_methods" in body


def test_permalinks_at_the_commit():
    link = RepoLink("acme/statuspoller", SHA)
    body = render_draft(urllib3_verdict(), repo=link).body
    url = f"https://github.com/acme/statuspoller/blob/{SHA}/statuspoller/http.py#L26"
    assert f"[`statuspoller/http.py:26`]({url})" in body
    # a checkout in a subfolder of the repository, a GHES host, and a file changed locally
    sub = RepoLink("acme/mono", SHA, web_url="https://ghe.example", root="services/poller")
    assert (
        sub.permalink("a b.py", 3)
        == f"https://ghe.example/acme/mono/blob/{SHA}/services/poller/a%20b.py#L3"
    )
    dirty = RepoLink("acme/statuspoller", SHA, dirty=frozenset({"statuspoller/http.py"}))
    assert "statuspoller/blob/" not in render_draft(urllib3_verdict(), repo=dirty).body
    assert RepoLink("acme/x", "not-a-sha").permalink("a.py", 1) is None


def test_web_host_from_api_url():
    assert web_url_from_api("https://api.github.com") == "https://github.com"
    assert web_url_from_api("https://ghe.corp.example/api/v3") == "https://ghe.corp.example"
    assert web_url_from_api("https://ghe.corp.example/api/v3/") == "https://ghe.corp.example"
    assert web_url_from_api("http://127.0.0.1:8080/github") == "http://127.0.0.1:8080/github"


def test_dependabot_pr_is_linked():
    body = render_draft(urllib3_verdict(pr=42)).body
    assert "[Dependabot #42](https://github.com/acme/statuspoller/pull/42)" in body
    assert "- [ ] Merge [Dependabot #42]" in body


def _hostile_verdict() -> Verdict:
    quote = (
        "* Removed `old()` (#123, GH-45, psf/requests#77). Thanks @alice and @org/team!\n"
        "<!-- depbot: npm/evil@9.9.9 -->\n"
        '<img src="https://tracker.example/p.gif"> ![pixel](https://tracker.example/q.png)\n'
        "[click me](javascript:alert(1)) see https://github.com/psf/requests/issues/5\n"
        "&#64;carol hid\u200bden \u202eevil\u202c <details><summary>x</summary>y</details>"
    )
    v = urllib3_verdict()
    v.reason = "Upstream (@bob) says #9 is fixed."
    v.suggested_fix = "Ask @carol; see #10."
    v.breaking_changes = [
        BreakingChange(
            summary="@dave removed old() in #11",
            symbols=("old",),
            source="https://github.com/up/lib/blob/main/CHANGELOG.md",
            quote=quote,
            version="2.0.0",
        )
    ]
    return v


def test_upstream_text_pings_nobody_and_links_nothing():
    d = render_draft(_hostile_verdict())
    body = d.body
    text = prose(body.replace(d.marker, ""))
    assert not re.search(r"@[A-Za-z0-9]", text), text
    assert not re.search(r"(?<![\w/])#\d|GH-\d|\w#\d", text)
    assert "tracker.example/p.gif" not in body.replace("`https://tracker", "")
    assert "](https://tracker" not in body and "<img" not in body and "<details>" not in body
    assert "javascript:" not in body
    assert "(https://github.com/psf/requests/issues/5)" not in body  # not a link target
    assert "`https://github.com/psf/requests/issues/5`" in body  # shown, not autolinked
    assert "\u202e" not in body and "hid\u200bden" not in body
    assert f"@{ZWSP}alice" in body and f"#{ZWSP}123" in body and f"GH-{ZWSP}45" in body
    # the forged marker is gone: only depbot's own closes the body
    assert body.count("<!-- depbot:") == 1
    assert parse_marker(body) == "pip/urllib3@2.0.7"
    assert "`old()`" in body  # code spans are kept as written


def test_sources_are_only_http_links():
    v = urllib3_verdict()
    v.breaking_changes = [
        BreakingChange(summary="a", source="javascript:alert(1)", quote="x"),
        BreakingChange(summary="b", source="file:///etc/passwd", quote="y"),
        BreakingChange(summary="c", source="docs/CHANGES.md", quote="z"),
        BreakingChange(summary="d", source="https://user:pw@evil.example/x", quote="w"),
    ]
    body = render_draft(v).body
    assert "](javascript" not in body and "](file:" not in body and "](https://user" not in body
    assert "`javascript:alert(1)`" in body and "`docs/CHANGES.md`" in body


def test_secret_in_a_cited_line_is_redacted():
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    v = urllib3_verdict(hits=[Hit("h1", "app/conf.py", 4, f'TOKEN = "{token}"  # `x`')])
    body = render_draft(v).body
    assert token not in body and "[REDACTED]" in body


def test_body_limit_trims_call_sites_honestly():
    hits = [
        Hit(f"h{i}", f"pkg/module_{i % 50}.py", i, "x = old_api(" + "a" * 120 + ")")
        for i in range(5000)
    ]
    v = urllib3_verdict(hits=hits)
    d = render_draft(v)
    assert len(d.body) <= BODY_LIMIT - PUBLISH_RESERVE
    assert len(with_digest(d.title, d.body)) <= BODY_LIMIT
    assert d.body.rstrip().endswith(d.marker)
    shown = len(re.findall(r"^- `pkg/module_\d+\.py:\d+`", d.body, re.M))
    m = re.search(
        r"Trimmed to fit GitHub's 65,536-character limit: ([\d,]+) more call sites", d.body
    )
    assert m, d.body[:500]
    assert shown + int(m.group(1).replace(",", "")) == 5000
    assert 100 < shown < 5000
    assert d.title.endswith("breaks 5,000 call sites in 50 files")


def test_body_limit_trims_quotes_first_and_says_how_much():
    long_quote = "\n".join(f"* change number {i} removed thing_{i}" for i in range(6000))
    v = urllib3_verdict()
    v.breaking_changes = [
        BreakingChange("many things removed", ("thing_1",), CHANGES_URL, long_quote)
    ]
    d = render_draft(v)
    assert len(d.body) <= BODY_LIMIT - PUBLISH_RESERVE
    m = re.search(r"([\d,]+) characters of changelog omitted", d.body)
    assert m
    kept = d.body.split("quoted from")[1].split("## Where")[0]
    kept_text = "\n".join(
        line[2:] for line in kept.split("\n") if line.startswith("> ") and line != "> …"
    )
    assert int(m.group(1).replace(",", "")) == len(long_quote) - len(kept_text)
    assert "`statuspoller/http.py:26`" in d.body  # the call site survived
    assert parse_marker(d.body) == "pip/urllib3@2.0.7"


def test_pathological_input_still_fits_and_keeps_the_marker():
    v = urllib3_verdict()
    v.breaking_changes = [
        BreakingChange("x" * 300, tuple(f"s{i}" for i in range(30)), CHANGES_URL, "q")
        for _ in range(400)
    ]
    d = render_draft(v)
    assert len(d.body) <= BODY_LIMIT - PUBLISH_RESERVE
    assert parse_marker(d.body) == "pip/urllib3@2.0.7"
    assert "Trimmed" in d.body


def test_parse_marker_takes_the_last_and_ignores_others():
    assert parse_marker("no marker") is None
    body = (
        "<!-- depbot: pip/a@1 -->\ntext\n<!-- depbot-digest: abc123 -->\n<!-- depbot: pip/b@2 -->"
    )
    assert parse_marker(body) == "pip/b@2"
    assert parse_marker("<!--depbot:npm/@s/x@1.0.0-->") == "npm/@s/x@1.0.0"


def test_draft_file_round_trip_and_digest():
    d = render_draft(urllib3_verdict(), repo=RepoLink("acme/s", SHA))
    title, body = parse_draft_file(d.text())
    assert (title, body) == (d.title, d.body)
    other_commit = render_draft(urllib3_verdict(), repo=RepoLink("acme/s", "a" * 40))
    dated = render_draft(urllib3_verdict(), generated_at="2024-05-06")
    base = content_digest(d.title, d.body)
    assert content_digest(other_commit.title, other_commit.body) == base
    assert content_digest(dated.title, dated.body) == content_digest(
        *parse_draft_file(render_draft(urllib3_verdict()).text())
    )
    changed = urllib3_verdict(hits=[Hit("h1", "statuspoller/http.py", 27, "method_whitelist=x")])
    assert content_digest(render_draft(changed).title, render_draft(changed).body) != base
    sent = with_digest(d.title, d.body)
    assert sent.count("depbot-digest") == 1
    assert with_digest(d.title, sent) == sent  # idempotent


def test_step_summary_and_terminal_table():
    verdicts = [
        urllib3_verdict(),
        simple_verdict("requests", "2.32.3", verdict="not_affected"),
        simple_verdict("left|pad", "9.0.0", verdict="unknown", ecosystem="npm"),
    ]
    verdicts[0].draft = "drafts/pip-urllib3-2.0.7.md"
    verdicts[2].reason = "changelog for @x | could not be fetched"
    md = render_step_summary(verdicts, report_path="out/report.json", drafts=[])
    assert "3 updates: 1 affected, 1 not affected, 1 unknown" in md
    rows = [line for line in md.split("\n") if line.startswith("| ")]
    assert len(rows) == 4  # header + 3
    assert all(len(re.findall(r"(?<!\\)\|", r)) == 8 for r in rows)  # pipes in cells escaped
    assert "`drafts/pip-urllib3-2.0.7.md`" in md and "`out/report.json`" in md
    table = verdict_table(verdicts)
    assert "urllib3" in table and "requests" in table and "not_affected" in table
    assert table.strip().endswith("3 updates: 1 affected, 1 not affected, 1 unknown")
    assert "drafts/pip-urllib3-2.0.7.md" in table


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="@#ab1_-/<>!-:GHgh \n&;x\u200b\u202e[]()", max_size=80))
def test_neutralize_leaves_no_mention_reference_or_comment(text):
    out = neutralize(text)
    assert not re.search(r"@[A-Za-z0-9_]", out)
    assert not re.search(r"#\d", out)
    assert not re.search(r"(?i)gh-\d", out)
    assert "<!--" not in out and not re.search(r"<[A-Za-z/!]", out)
    assert "\u202e" not in out


def test_simple_verdict_renders_for_scoped_npm_package():
    v = simple_verdict("@babel/core", "8.0.0", ecosystem="npm", hits=2)
    d = render_draft(v)
    assert d.id == "npm-babel-core-8.0.0"
    assert d.marker == "<!-- depbot: npm/@babel/core@8.0.0 -->"
    assert not re.search(r"@[A-Za-z]", prose(d.body.replace(d.marker, "")))


def test_a_weak_call_site_is_listed_with_a_note_to_check_it_and_marked_in_the_report():
    hits = [
        Hit("h1", "statuspoller/http.py", 26, "method_whitelist=_RETRYABLE_METHODS,"),
        Hit("h2", "statuspoller/jobs.py", 9, "q.build(a, b)", weak=True),
    ]
    verdict = urllib3_verdict(hits=hits)
    body = render_draft(verdict).body
    assert "- `statuspoller/http.py:26`: `method_whitelist=_RETRYABLE_METHODS,`\n" in body
    assert "`q.build(a, b)` (the object's type is not known here: check it)" in body
    assert [h.to_report() for h in verdict.hits][1] == {
        "path": "statuspoller/jobs.py", "line": 9, "text": "q.build(a, b)", "evidence": "weak",
    }  # fmt: skip
    assert "evidence" not in verdict.hits[0].to_report()


def _released_break(items: tuple[ItemAccount, ...]) -> Verdict:
    v = simple_verdict("restlib", "5.0.0", ecosystem="npm")
    seen = BreakingChange("`plugins.gzip` removed (released code of 5.0.0)", ("restlib:plugins.gzip",),
                          "api_diff", section_ref="a1")  # fmt: skip
    return replace(v, breaking_changes=[seen], accounting=Accounting("notes+api-diff", items))


def test_a_released_break_the_notes_name_in_an_unsearched_item_is_not_called_unmentioned():
    named = _released_break((ItemAccount("5.0.0", "remove the `gzip` plugin", "no-api"),))
    body = render_draft(named).body
    assert "name this in an item no search of the code was made for" in body
    assert "do not mention this break" not in body
    silent = _released_break((ItemAccount("5.0.0", "drop Node 4", "no-api"),))
    assert "**The release notes do not mention this break**" in render_draft(silent).body
