"""The built real-world corpus, evaluated with the rules model through production code.

Skipped unless the corpus is built (``python tools/realworld.py build``; the built folder
is git-ignored). Runs ``depbot eval tests/realworld`` as the user would (about 2-3 minutes
for 40 cases). The floor only rises; the false-safe ceiling only falls.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.realworld import CORPUS

# 81 cases: the 49 before #26 (44 passed, false-safe 1), the 18 npm cases of #27 (npm30) and
# 14 more (npm32), each batch written and scored before any change (NPM30-BEFORE.md,
# NPM32-BEFORE.md). At fd407c3: 58 passed, false-safe 8; 63 and 5 after the build/ scope,
# named-loader options, narrowed option values and [BREAKING] tags. The floor fell once, by
# choice, to 57 (c41db86): a breaking item that names no API keeps the verdict unknown, which
# turned 4 false-safe verdicts and 6 right negatives into unknown. 62 since the corpus keeps
# npm releases' JavaScript beside their declarations (tools/realworld_dist.trim_npm), as real
# tarballs hold it; 67 of 81 at stop 42. Then 11 npm cases written blind (NPM12-BEFORE.md):
# 1 of them passed, and 2 held-out ones are false-safes no change may be tuned on. 68 of 92;
# 71 after package-wide callbacks, typed parameters and the package not a removed name; 72.
# Then 7 more written blind (NPM8-AFTER-BLIND.md): 4 passed, no false-safe. 76 of 99.
# Stop 43: 9 more written blind (NPM9-BLIND.md), 5 passed; stylelint-16 passes, and two
# negatives whose notes remove things they do not name became unknown (honest): 80 of 108;
# 82 with d3's one-heading-per-major notes and graphql's declared positional form; 83
# with a loader's model object (sequelize-5). Then 7 written blind (NPM7-BLIND.md): 4 passed
# at ce54306, one held-out false-safe (minimatch-9). 87 of 115. Then 9 written blind
# (NPM9B-BLIND.md): 4 passed at e851551, no false-safe. 91 of 124. Stop 44: 10 written
# blind (NPM10-BLIND.md): 5 passed at 5756182, one held-out false-safe (nodemailer-7). 96 of 134;
# 98 with calls of a counted number of arguments (sinon-3) and config files naming entries.
# Then 6 written blind (NPM6-BLIND.md): 1 passed at cc3cab7, no false-safe. 99 of 140;
# 100 with a removed call of the package's own name read as the module called (body-parser-2);
# 101 with what a hook returns read across declaration files, destructured (swr-1). Then 7
# written blind (NPM7-STOP44-BLIND.md): 3 passed at 0b1bb93, no false-safe. 104 of 147.
# Then 6 written blind (NPM6-STOP44-BLIND.md): 3 passed at 2ef0ca9, no false-safe. 107 of 153;
# 109 with JSX props of the package's components and options of an inline require's call.
# Stop 45: 12 written blind (NPM12-STOP45-BLIND.md): 6 passed at afa319f, no false-safe.
# 115 of 165; 116 with migration guides named v3-migration.md read whole (chart.js-3); 117
# with TypeScript compiled to CommonJS requiring an ESM-only package (got-12). Then 12 written
# blind (NPM12B-STOP45-BLIND.md): 7 passed at bfcfa3b, no false-safe. 124 of 177; 126 with
# deprecations read past their scope and functions never matched as option keys. Then 8
# written blind (NPM8-STOP45-BLIND.md): 4 passed at b9fc6a0; 132 of 185 with guides behind a
# docs site's front matter and a release's re-exports of its own entry points. Then 4 written
# blind (NPM4-STOP45-BLIND.md): 4 passed at 6a95eeb. 136 of 189; 137 with events no longer
# emitted read as their listeners (socket.io-client-3). Then 11 written blind
# (NPM11-STOP45-BLIND.md): 5 passed at f3571d0. 142 of 200; 143 with dated version headings
# and rename lists of pairs (mathjs-7). Then 10 written blind (NPM10-STOP45-BLIND.md): 6 passed
# at 1bb58de. 149 of 210; 150 with the fake registry reading backticked headings (superstruct-1).
# Then 6 written blind (NPM6-STOP45-BLIND.md): 5 passed at ade3a1d. 155 of 216; 156 with
# stylesheets a release ships and guides' "If you were using" steps (tippy.js-5). Then 4
# written blind (NPM4B-STOP45-BLIND.md): none passed at 8eef469, no false-safe. 156 of 220.
# 158 in stop 46 (UMD bundles, values handed to other modules); 164 in stop 47 with
# who_loads (a package nothing loads). Then 15 written blind (NPM15-STOP47-BLIND.md): 6
# passed at 6bf8d3a, no false-safe. 170 of 235.
# Stop 52: 20 written blind (NPM20-STOP52-BLIND.md): 12 passed at d85ab2f, no false-safe;
# 220 of 300 at its end (interop defaults, options schemas, own config files at the root).
# Stop 53: 20 written blind (NPM20-STOP53-BLIND.md): 12 passed at 5e38c19, one false-safe
# (stream-transform 3, fixed); 240 of 320 at its end (module format items compared, types
# that became values, module objects no longer callable, string values).
# It only rises from here
# Stop 54: 40 written blind (NPM21/NPM22-STOP54-BLIND.md); 268 of 360 at its end.
# Stop 55: the builder records the registry's releases between the two versions (one
# negative became unknown); 60 written blind (NPM23/24/25-STOP55-BLIND.md: 16, 11 and 12
# passed first, one false-safe, fixed); 311 of 420 at its end.
# Stop 56: 15 more written blind (NPM27-STOP56-BLIND.md: 8 passed first); 332 of 453 at its
# end, one held-out case lost to a reading that no longer vouches for a call's result.
# Stop 57: 19 more written blind (NPM28-STOP57-BLIND.md: 14 passed first); 353 of 472.
# Stop 58: the corpus serves the real @types releases (34bf3b9: 353 → 360 on the same code);
# 19 more written blind (NPM29-STOP58-BLIND.md: 14 passed first); 380 of 491 at 25a026a.
FLOOR = 372  # stop 58: 491 cases; 380 pass
# expected affected, got not_affected: only these, each a held-out case that came in so;
# the list only shrinks (prettier-3 left it at stop 43: unknown; yargs-18 and nodemailer-7
# at stop 45: unknown, an import the API diff could not find is vouched for by nothing)
KNOWN_FALSE_SAFE = {
    "npm-minimatch-9-default-export-removed-typescript",  # held out, NPM7-BLIND.md
}


def test_the_built_corpus_holds_its_floor(tmp_path):
    built = CORPUS / "built"
    if not built.is_dir() or not any(p.is_dir() for p in built.iterdir()):
        pytest.skip("corpus not built: run python tools/realworld.py build")
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    done = subprocess.run(
        [sys.executable, "-m", "depbot", "eval", str(CORPUS), "--model", "rules",
         "--json", str(tmp_path / "eval.json")],
        env={**env, "PYTHONPATH": str(ROOT)}, cwd=tmp_path, capture_output=True, text=True,
        timeout=1200,
    )  # fmt: skip
    assert (tmp_path / "eval.json").is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    summary = json.loads((tmp_path / "eval.json").read_text())
    totals = summary["totals"]
    failed = [s["name"] for s in summary["scenarios"] if not s["passed"]]
    assert totals["passed"] >= FLOOR, failed
    assert set(totals["false_safe_cases"]) <= KNOWN_FALSE_SAFE, totals["false_safe_cases"]
