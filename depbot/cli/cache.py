"""``depbot cache``: where the cache folder is, what it holds, and clearing it."""

from __future__ import annotations

import click

from depbot.cli.common import echo, fail_cleanly
from depbot.core.cachedir import clear, evict, megabytes, usage
from depbot.core.settings import Settings

_PART_WORDS = {
    "http": "HTTP cache (registry entries, changelogs, release notes)",
    "artifacts": "release archives",
    "unpacked": "unpacked releases",
    "diffs": "API diffs of release pairs",
    "uses": "use-checks of a checkout's tree (imports, names, symbol searches)",
}


@click.group("cache", invoke_without_command=True,
             short_help="Show the cache folder (depbot cache), or clear it.")  # fmt: skip
@click.pass_context
@fail_cleanly
def cache_group(ctx: click.Context) -> None:
    """Show where depbot's cache folder is and what it holds.

    The folder is DEPBOT_CACHE_DIR (default ~/.cache/depbot, or $XDG_CACHE_HOME/depbot);
    DEPBOT_NO_CACHE=1 turns it off. After each run the least recently used release
    archives and unpacked releases are removed until it is under DEPBOT_CACHE_MAX_MB
    (default 1000; 0: no cap).

    \b
    Examples:
      depbot cache              where it is, its size by part, the cap
      depbot cache clear        remove everything in it
      depbot cache trim         apply the cap now
    """
    if ctx.invoked_subcommand is not None:
        return
    settings = Settings.from_env()
    if settings.cache_dir is None:
        echo("The cache is off (DEPBOT_NO_CACHE=1).")
        return
    found = usage(settings.cache_dir)
    cap = f"{settings.cache_max_mb} MB" if settings.cache_max_mb > 0 else "none"
    echo(f"cache: {settings.cache_dir}")
    echo(f"size:  {megabytes(found.total)} (cap {cap}, DEPBOT_CACHE_MAX_MB)")
    for part, (n, size) in found.by_part().items():
        echo(f"  {megabytes(size):>10}  {n:>5} entries  {_PART_WORDS[part]}")


@cache_group.command("clear", short_help="Remove everything in the cache folder.")
@fail_cleanly
def cache_clear_command() -> None:
    """Remove everything in the cache folder; the next run fetches what it needs again."""
    settings = Settings.from_env()
    if settings.cache_dir is None:
        echo("The cache is off (DEPBOT_NO_CACHE=1): nothing to clear.")
        return
    removed, freed = clear(settings.cache_dir)
    echo(f"cleared {settings.cache_dir}: {removed} entries, {megabytes(freed)}")


@cache_group.command("trim", short_help="Bring the cache folder under its cap now.")
@fail_cleanly
def cache_trim_command() -> None:
    """Remove the least recently used entries until the folder is under DEPBOT_CACHE_MAX_MB
    (what a run does when it ends; entries used in the last hour stay)."""
    settings = Settings.from_env()
    if settings.cache_dir is None:
        echo("The cache is off (DEPBOT_NO_CACHE=1): nothing to trim.")
        return
    removed, freed = evict(settings.cache_dir, settings.cache_max_mb * 1_000_000)
    echo(f"trimmed {settings.cache_dir}: {removed} entries, {megabytes(freed)}")
