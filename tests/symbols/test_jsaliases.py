"""Module aliases of tsconfig/jsconfig (``symbols.jsaliases``), and a made value followed
through one (``SymbolSearch``), over real files."""

from __future__ import annotations

from pathlib import Path

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols import jsaliases
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch


def test_paths_and_base_url_with_comments_and_trailing_commas():
    text = (
        '{\n  // the app\n  "compilerOptions": {\n    "baseUrl": "./src", /* here */\n'
        '    "paths": { "@/*": ["*"], "~lib/*": ["../lib/*", "../vendor/*"], "cfg": ["conf/index"], },\n'
        "  },\n}\n"
    )
    config = jsaliases.read("web/tsconfig.json", text)
    assert config is not None and config.folder == "web" and config.base == "web/src"
    assert jsaliases.candidates(config, "@/net/client")[:2] == [
        "web/src/net/client", "web/src/net/client.js"
    ]  # fmt: skip
    assert "web/lib/x.ts" in jsaliases.candidates(config, "~lib/x")
    assert "web/vendor/x.ts" in jsaliases.candidates(config, "~lib/x")
    assert jsaliases.candidates(config, "cfg")[0] == "web/src/conf/index"
    assert jsaliases.candidates(config, "react")[0] == "web/src/react"  # baseUrl: tried, may miss
    assert jsaliases.read("tsconfig.json", "not json") is None
    outside = jsaliases.read(
        "tsconfig.json", '{"compilerOptions": {"paths": {"x/*": ["../../*"]}}}'
    )
    assert outside is not None and jsaliases.candidates(outside, "x/y") == []


def test_the_nearest_config_applies():
    root = jsaliases.Aliases("", "", {"@/*": ("src/*",)})
    app = jsaliases.Aliases("apps/web", "apps/web", {"@/*": ("app/*",)})
    assert jsaliases.nearest([root, app], "apps/web/app/page.tsx") is app
    assert jsaliases.nearest([root, app], "apps/webx/page.tsx") is root
    assert jsaliases.nearest([app], "src/page.tsx") is None


def _search(tmp_path: Path, files: dict[str, str]) -> SymbolSearch:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return SymbolSearch(CodeSearch(tmp_path, Settings()))


def test_a_value_the_package_made_is_followed_through_an_alias(tmp_path: Path):
    ss = _search(tmp_path, {
        "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}',
        "src/net/client.ts": "import { createClient } from 'httpkit';\n\n"
                             "export const client = createClient();\n",
        "src/pages/status.tsx": "import { client } from '@/net/client';\n\n"
                                "export const ping = (u: string) => client.head(u);\n",
        "src/pages/other.ts": "import { client } from '@/net/elsewhere';\nclient.head('x');\n",
    })  # fmt: skip
    res = ss.search(SymbolQuery("npm", "httpkit", "Client.head"))
    assert [(h.path, h.line, h.evidence) for h in res.hits] == [
        ("src/pages/status.tsx", 3, "strong")
    ]
