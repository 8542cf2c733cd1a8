"""Where things are in the checkout, for tests at any depth."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
SCENARIOS = TESTS / "scenarios"
DEMO = ROOT / "depbot" / "demo"
SHARED_SCENARIOS = ROOT.parent / "shared" / "scenarios"  # the public scenarios, beside the repo
