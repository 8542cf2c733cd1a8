"""Pieces shared by the command modules: error handling, the update-source flags, the model
flag, the output folder flag (``-o/--out``, the same default everywhere) and text fit for
the terminal."""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from depbot.core.errors import DepbotError, InputError

DEFAULT_OUT = "depbot-out"  # the output folder of every command, unless -o/--out or DEPBOT_OUT
OUT_ENV = "DEPBOT_OUT"
ARROW = "→"  # "from → to" in every table; "->" where stdout cannot print it (plain_text)

F = TypeVar("F", bound=Callable[..., Any])


# a write that failed for want of room (or of a writable disk): said in one line, exit 1
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS})


def fail_cleanly(func: F) -> F:
    """Turn a ``DepbotError`` into one line on stderr and its exit code; so too a write the
    disk refused (full, over quota, read-only), naming the folder and how to go on."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except DepbotError as exc:
            plain = getattr(exc, "plain", False)  # a refusal that is its own sentence
            click.echo(f"depbot: {'' if plain else 'error: '}{exc}", err=True)
            sys.exit(exc.exit_code)
        except OSError as exc:
            if exc.errno not in NO_ROOM:
                raise
            click.echo(f"depbot: error: {no_room(exc, kwargs)}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def no_room(exc: OSError, kwargs: dict[str, Any]) -> str:
    """The one line for a write the disk refused: the folder, the cause, what to do next."""
    folder = kwargs.get("resume") or kwargs.get("out_dir")
    where = f" in {folder}" if folder else (f" {exc.filename}" if exc.filename else "")
    cause = exc.strerror or os.strerror(exc.errno or 0)
    line = f"could not write{where}: {cause}"
    if folder and "resume" in kwargs:  # depbot triage: the journal keeps what was concluded
        line += (
            f"; make room, then run the same command with --resume {folder}: the updates "
            "already concluded are kept"
        )
    return line


# --- where the update list comes from (shared by `updates` and `triage`) ---------------


def update_source_options(func: F) -> F:
    """``--checkout``, ``--updates`` and ``--dependabot``: the three sources of the update list.

    ``-C/--checkout PATH`` is the checkout (``--repo`` is OWNER/REPO wherever it is shown);
    ``-r``/``--repo PATH``, its older names, still work here, hidden from the help."""

    command = func

    @functools.wraps(command)
    def merged(*args: Any, repo_alias: Path | None = None, **kwargs: Any) -> Any:
        if repo_alias is not None:
            if kwargs.get("repo") is not None:
                raise click.UsageError(
                    "give the checkout once: -C/--checkout PATH (-r/--repo is its old name)"
                )
            kwargs["repo"] = repo_alias
        if kwargs.get("repo") is None:
            kwargs["repo"] = Path(".")
        return command(*args, **kwargs)

    func = merged  # type: ignore[assignment]
    func = click.option(
        "-d",
        "--dependabot",
        metavar="OWNER/REPO",
        envvar="DEPBOT_DEPENDABOT_REPO",
        help="Read the open Dependabot pull requests of this GitHub repository "
        "(needs GITHUB_TOKEN; env DEPBOT_DEPENDABOT_REPO).",
    )(func)
    func = click.option(
        "-u",
        "--updates",
        "updates_file",
        metavar="FILE",
        type=click.Path(path_type=Path, dir_okay=False),
        envvar="DEPBOT_UPDATES_FILE",
        help="Read the update list from a JSON or TOML file of Dependabot-style records "
        "(env DEPBOT_UPDATES_FILE).",
    )(func)
    func = click.option(
        "-r",
        "--repo",
        "repo_alias",
        metavar="PATH",
        type=click.Path(path_type=Path),
        default=None,
        hidden=True,
    )(func)
    func = click.option(
        "-C",
        "--checkout",
        "repo",
        metavar="PATH",
        type=click.Path(path_type=Path),
        default=None,
        help="The checkout to read (default: the current folder; -r/--repo PATH, its older "
        "names, still work).",
    )(func)
    return func


def check_one_source(ctx: click.Context, updates_file: Path | None, dependabot: str | None) -> None:
    """``--updates`` and ``--dependabot`` exclude each other; say where each one came from."""
    if updates_file is None or not dependabot:
        return

    def named(param: str, flag: str, env: str) -> str:
        from_env = ctx.get_parameter_source(param) == click.core.ParameterSource.ENVIRONMENT
        return f"{env} (environment)" if from_env else flag

    raise InputError(
        f"{named('updates_file', '--updates', 'DEPBOT_UPDATES_FILE')} and "
        f"{named('dependabot', '--dependabot', 'DEPBOT_DEPENDABOT_REPO')} exclude each other: "
        "give one source of updates"
    )


# --- the model (triage, demo, eval) ------------------------------------------------------

model_option = click.option(
    "-m",
    "--model",
    metavar="NAME",
    envvar="DEPBOT_MODEL",
    help="'rules' (built-in, offline; the default) or a chat model name served at "
    "OPENAI_BASE_URL with OPENAI_API_KEY (env DEPBOT_MODEL).",
)


# --- the output folder (triage, demo, drafts, publish, trace show) ----------------------

DEFAULT_OUT_NOTE = (
    f"Default: {DEFAULT_OUT} in the current folder (env {OUT_ENV}); inside a git checkout "
    "depbot writes a .gitignore of '*' into that default folder, so git ignores it."
)


def out_option(help_text: str, *, default: str | None = DEFAULT_OUT, hidden_alias: bool = False):
    """``-o/--out DIR`` (env ``DEPBOT_OUT``, default ``depbot-out``): one flag, one default.

    ``hidden_alias`` adds ``--dir``, the older name of the flag in ``depbot drafts``.
    """
    names = ["-o", "--out", *(["--dir"] if hidden_alias else [])]
    return click.option(
        *names,
        "out_dir",
        metavar="DIR",
        type=click.Path(path_type=Path, file_okay=False),
        default=default,
        show_default=default is not None,
        envvar=OUT_ENV,
        help=help_text,
    )


def out_given(ctx: click.Context, param: str = "out_dir") -> bool:
    """Whether the output folder came from the command line or DEPBOT_OUT (not the default)."""
    source = ctx.get_parameter_source(param)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def inside_git_checkout(folder: Path) -> bool:
    """Whether ``folder`` (which need not exist yet) lies inside a git work tree."""
    here = folder.resolve()
    return any((p / ".git").exists() for p in (here, *here.parents))


def ignore_in_git(out_dir: Path) -> bool:
    """Keep the default output folder out of ``git status``: a ``.gitignore`` of ``*`` in it.

    Only inside a git checkout, and never over a ``.gitignore`` already there; True when
    the folder is (now) ignored this way.
    """
    if not inside_git_checkout(out_dir):
        return False
    marker = out_dir / ".gitignore"
    if not marker.exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        marker.write_text("# written by depbot: its output folder stays out of git\n*\n")
    return True


# --- text for the terminal ---------------------------------------------------------------

_ASCII = {ARROW: "->", "—": "-", "–": "-", "…": "...", "·": "-"}


def plain_text(text: str, encoding: str | None = None) -> str:
    """``text`` as stdout can print it: ``→`` becomes ``->`` (and so on) when it is not UTF-8."""
    encoding = encoding if encoding is not None else getattr(sys.stdout, "encoding", None)
    try:
        text.encode(encoding or "utf-8")
        return text
    except (UnicodeEncodeError, LookupError):
        for wide, narrow in _ASCII.items():
            text = text.replace(wide, narrow)
        return text


def echo(text: str = "", **kwargs: Any) -> None:
    """``click.echo`` of ``plain_text(text)``: the tables' arrows survive a non-UTF-8 stdout."""
    click.echo(plain_text(text), **kwargs)
