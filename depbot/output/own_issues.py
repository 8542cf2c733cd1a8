"""Which issues are depbot's own: the marker says which update, the author says whose.

Anyone who can open an issue can paste ``<!-- depbot: pip/PyYAML@6.0.1 -->`` into it.
So an issue counts as depbot's only when it was opened by the identity publishing now:

- the token's user (``GET /user`` → ``login``), for a personal access token;
- for a GitHub App installation token or the Actions ``GITHUB_TOKEN`` (``GET /user``
  answers 403 "Resource not accessible by integration"): ``Settings.bot_login``, from
  ``DEPBOT_BOT_LOGIN`` (an app's ``<slug>[bot]``), else ``github-actions[bot]`` when
  ``GITHUB_ACTIONS=true``; with neither, publish stops and says to set it;
- a dry run without a token cannot ask: ``bot_login`` if set, else authors are not checked.

Issues by others that carry a marker are ignored, and the summary says so once. Search
asks for ``author:`` too and its results are checked again.

Two publishes at once (two output folders, so no shared lock) can both create an issue
for one marker: after creating, ``older_twin`` looks for an older open issue with the
same marker by the same author, and the newer one is closed as its duplicate (lowest
number wins, so exactly one of the two publishes closes its own).
"""

from __future__ import annotations

from depbot.core.errors import PublishError, UpstreamError
from depbot.core.settings import Settings
from depbot.github.issues import GitHubIssues, IssueInfo
from depbot.output.drafts import MARKER_RE, parse_marker

SEARCH_QUERY = 'repo:{repo} is:issue in:body "depbot"'
DUPLICATE_MARKER = "<!-- depbot-duplicate:"


def publisher_login(gi: GitHubIssues, settings: Settings) -> str | None:
    """The login depbot's issues are opened by with this token (None: unknown, no token).

    Raises ``UpstreamError`` for GitHub failures (401: a bad token) and ``PublishError`` for
    an app token whose bot login is not configured.
    """
    if not settings.github_token:
        return settings.bot_login or None
    try:
        return gi.viewer_login()
    except UpstreamError as exc:
        if exc.kind != "unauthorized" or exc.status != 403:
            raise
    if settings.bot_login:
        return settings.bot_login
    raise PublishError(
        "GitHub does not say whose this token is (GET /user: HTTP 403, as for a GitHub App "
        "token): set DEPBOT_BOT_LOGIN to the login its issues are opened by, e.g. my-app[bot]"
    )


def search_author(login: str) -> str:
    """The ``author:`` qualifier of GitHub search for ``login`` (bots: ``app/<slug>``)."""
    if login.lower().endswith("[bot]"):
        return f"app/{login[: -len('[bot]')]}"
    return login


def search_query(repo: str, login: str | None) -> str:
    query = SEARCH_QUERY.format(repo=repo)
    return f"{query} author:{search_author(login)}" if login else query


class OwnIssues:
    """depbot's issues by update key, and the marked issues of others that were ignored."""

    def __init__(self, login: str | None) -> None:
        self.login = login
        self.by_key: dict[str, list[IssueInfo]] = {}
        self.ignored: dict[int, str] = {}  # issue number -> its author
        self.newest = 0  # the highest issue number seen (marked or not)

    def is_author(self, login: str) -> bool:
        """Whether ``login`` is the identity publishing now (always, when that is unknown)."""
        return self.login is None or login.lower() == self.login.lower()

    def mine(self, issue: IssueInfo) -> bool:
        """Whether ``issue`` was opened by the identity publishing now (noting it if not)."""
        if self.is_author(issue.author):
            return True
        if parse_marker(issue.body):
            self.ignored[issue.number] = issue.author or "unknown"
        return False

    def add(self, issues: list[IssueInfo]) -> None:
        for issue in issues:
            self.newest = max(self.newest, issue.number)
            key = parse_marker(issue.body)
            if not key or not self.mine(issue):
                continue
            known = self.by_key.setdefault(key, [])
            known[:] = [i for i in known if i.number != issue.number] + [issue]

    def get(self, key: str) -> list[IssueInfo]:
        return self.by_key.get(key, [])

    def replace(self, key: str, issue: IssueInfo) -> None:
        """Forget every issue of ``key`` but ``issue``."""
        self.by_key[key] = [issue]

    def ignored_line(self) -> str:
        """One summary part about the ignored issues ("" when none)."""
        if not self.ignored:
            return ""
        n = len(self.ignored)
        authors = " and ".join(f"@{a}" for a in sorted(set(self.ignored.values())))
        issues, verb = ("1 issue", "carries") if n == 1 else (f"{n} issues", "carry")
        return f"ignored {issues} by {authors} that {verb} depbot's marker"


def older_twin(
    gi: GitHubIssues, repo: str, label: str, key: str, issue: IssueInfo, scanned: int
) -> IssueInfo | None:
    """The oldest open issue with ``key``'s marker by ``issue``'s author, older than ``issue``.

    ``scanned``: the newest issue number the scan before creating saw. A twin made before
    that scan would have been found by it, so only issues numbered above it are read
    (newest first: usually one page). The issues list is consistent the moment an issue
    is created, so of two publishes that both created one, the newer always sees the
    older. A failure counts as none found: the issue is made and recorded, the next run
    finds both and uses the older.
    """
    try:
        newer = gi.open_issues_between(repo, label, scanned, issue.number)
    except UpstreamError:
        return None
    twins = [
        other
        for other in newer
        if parse_marker(other.body) == key and other.author.lower() == issue.author.lower()
    ]
    return min(twins, key=lambda i: i.number) if twins else None


def duplicate_body(body: str, older: int) -> str:
    """``body`` with its marker disabled, so no later run takes the duplicate for depbot's."""
    off = MARKER_RE.sub(lambda m: f"{DUPLICATE_MARKER} {m.group(1)} -->", body)
    return f"{off}\n<!-- duplicate of #{older} -->"
