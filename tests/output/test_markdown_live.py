"""#28 items 1 and 2: nothing live reaches a draft, the job summary or a PR comment.

Checked with a real CommonMark parser (markdown-it-py, with GFM's tables and
strikethrough), not with depbot's own idea of where code is: what the parser sees as HTML,
a link, an image, or a mention, reference or URL in text is what GitHub would act on.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from depbot.output.draft_body import FOOTER_PREFIX
from depbot.output.drafts import parse_marker, render_draft, render_step_summary
from depbot.output.mdsafe import neutralize, neutralize_inline, neutralize_line
from depbot.records.verdict import BreakingChange
from tests.helpers.samples import urllib3_verdict

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
LIVE_TEXT = re.compile(
    r"@[A-Za-z0-9_]|#\d|GH-\d|(?:https?|ftp)://[^\s<]*[A-Za-z0-9]|www\.[A-Za-z0-9]", re.I
)
OWN_HTML = re.compile(r"<sub>|</sub>|<!-- depbot: [^>]+ -->\n?")

ATTACK_QUOTE = (
    "- `Retry.method_whitelist` was removed, see `the guide\n"
    "- ping @org/team <img src=https://attacker/pixel> and [log in](https://evil.example/)\n"
    "- more text ` here"
)


def live_in(markdown: str) -> list[str]:
    """What GitHub would act on in ``markdown``, beyond depbot's own footer and marker."""
    found = []
    stack = list(MD.parse(markdown))
    while stack:
        tok = stack.pop()
        if tok.type in ("html_block", "html_inline") and not OWN_HTML.fullmatch(tok.content):
            found.append(f"{tok.type}: {tok.content!r}")
        elif tok.type in ("link_open", "image"):
            found.append(f"{tok.type}: {tok.attrs}")
        elif tok.type == "text" and LIVE_TEXT.search(tok.content):
            found.append(f"text: {tok.content!r}")
        stack.extend(tok.children or ())
    return found


def draft_with(text: str) -> str:
    """The draft body with ``text`` in every field upstream or a model writes."""
    v = urllib3_verdict()
    v.reason = text
    v.suggested_fix = text
    bc = BreakingChange(text, ("method_whitelist",), "CHANGES.rst", text, "2.0.0", "c1.s1")
    v.breaking_changes = [bc, replace(bc, section_ref="a1")]
    return render_draft(v).body


def marker_is_last_block(body: str) -> bool:
    tokens = MD.parse(body)
    return tokens[-1].type == "html_block" and tokens[-1].level == 0


def test_a_code_span_left_open_does_not_cross_the_next_list_item():
    # before: everything up to the backtick two items later was kept as code, but
    # CommonMark ends the span at the new item, so the mention, image and link went live
    assert live_in(neutralize(ATTACK_QUOTE)) == []
    body = draft_with(ATTACK_QUOTE)
    assert live_in(body) == []
    assert "org/team" in body and "log in" in body  # the words stay


def test_a_span_that_closes_on_its_line_stays_code():
    out = neutralize("- `@decorator` and `<T>` were removed")
    assert "`@decorator`" in out and "`<T>`" in out
    assert live_in(out) == []


def test_an_entity_backtick_cannot_pair_with_a_kept_span():
    out = neutralize("&#96; then `@org/team` then more")
    assert live_in(out) == []


def test_a_fence_inside_a_list_item_is_not_taken_for_a_top_level_one():
    # the fence ends with the list item, so the unindented lines after it are prose
    text = "- item\n  ```\n@org/team <img src=x>\n```"
    assert live_in(neutralize(text)) == []


def test_a_top_level_fence_is_kept_and_closed():
    out = neutralize("Use:\n\n```python\n@app.route('/x')\nprint(1)")
    assert "@app.route('/x')" in out  # code as written
    assert out.endswith("```")
    assert live_in(out + "\n\n@after") != []  # the paragraph after it is read as text again
    assert live_in(out) == []


def test_model_text_starting_with_a_fence_is_neutralized_where_it_lands():
    # before: neutralize kept a leading fence as code, but after "**Why:** ", in a heading
    # and in a table cell there is no fence, so the mention and the HTML went live
    for fence in ("```", "~~~"):
        text = f"{fence}\n@org/team <img src=https://attacker/pixel>\n{fence}"
        assert live_in("**Why:** " + neutralize_inline(text)) == []
        assert live_in("### 1. " + neutralize_line(text)) == []
        assert live_in(draft_with(text)) == []


def test_an_unclosed_tilde_fence_in_a_suggested_fix_swallows_nothing():
    v = urllib3_verdict()
    v.suggested_fix = "~~~\nreplace the call"
    body = render_draft(v).body
    assert marker_is_last_block(body)  # before: inside the open fence, as code
    assert parse_marker(body) == "pip/urllib3@2.0.7"
    headings = [t.content for t in MD.parse(body) if t.type == "inline"]
    assert "Checklist" in headings
    assert any(h.startswith(FOOTER_PREFIX) for h in headings)


def test_the_job_summary_has_nothing_live():
    v = urllib3_verdict()
    v.reason = "```\n@org/team [x](https://evil.example) <img src=x> #12 `open"
    md = render_step_summary([v], report_path="out/report.json")
    assert live_in(md) == []


PIECES = list("`~@#ab1_-/<>!:[]()\\&;* >\n\t|=") + ["```", "~~~", "- ", "> ", "    "] + [
    "@org/team", "<img src=x>", "[a](http://e.x)", "&#96;", "&#64;o", "www.e.co", "GH-1",
    "<!-- depbot: pip/x@1 -->", "http://e.x/a", "1. ", "\n\n", "[a]:\nhttp://e.x", "[a]",
]  # fmt: skip
HOSTILE = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@settings(max_examples=120, deadline=None)
@given(HOSTILE)
def test_no_hostile_text_leaves_anything_live_in_a_draft(text):
    body = draft_with(text)
    assert live_in(body) == []
    assert marker_is_last_block(body)
    assert parse_marker(body) == "pip/urllib3@2.0.7"


@settings(max_examples=120, deadline=None)
@given(HOSTILE)
def test_no_hostile_text_leaves_anything_live_in_a_piece(text):
    assert live_in(neutralize(text)) == []
    assert live_in("**Why:** " + neutralize_inline(text)) == []
    assert live_in("| a | " + neutralize_line(text) + " |") == []


def test_versions_and_titles_are_neutralized_too():
    v = urllib3_verdict()
    v.update = replace(v.update, from_version="1.0 <img src=x> @org/team", to_version="2 #9")
    v.breaking_changes = [replace(v.breaking_changes[0], source="CHANGES.rst")]
    body = render_draft(v).body
    assert live_in(body) == []
    assert live_in(render_step_summary([v], report_path="r.json")) == []


@pytest.mark.parametrize("n", [162])
def test_a_hard_trim_cuts_between_sections_never_inside_code(n):
    # before: the body was cut at a character count, which (at these lengths) ended inside
    # a code span and freed the mention it held
    v = urllib3_verdict()
    bc = BreakingChange("`@org/team " + "x" * n + "`", ("a",), "CHANGES.rst", "", "2.0.0")
    v.breaking_changes = [replace(bc, section_ref=f"c1.s{i}") for i in range(2000)]
    body = render_draft(v).body
    assert len(body) <= 65_536
    assert "Trimmed hard" in body
    assert live_in(body) == []
    assert marker_is_last_block(body) and parse_marker(body) == "pip/urllib3@2.0.7"
