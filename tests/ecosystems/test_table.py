"""The registration table: names, aliases, grammars and registry URLs come from each ecosystem."""

from __future__ import annotations

import pytest

from depbot import ecosystems
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.records.versions import parse_version, update_type
from depbot.updates.registries import Registries


def test_names_and_aliases_resolve_to_the_registered_ecosystems() -> None:
    assert ecosystems.names()[:2] == ("pip", "npm")
    assert ecosystems.get("PyPI") is ecosystems.PIP
    assert ecosystems.get(" npm_and_yarn ") is ecosystems.NPM
    assert ecosystems.find("cargo") is None
    with pytest.raises(ValueError, match="unknown ecosystem 'cargo'"):
        ecosystems.get("cargo")


def test_each_ecosystem_reads_its_own_versions_through_the_records() -> None:
    assert parse_version("pip", "2.0.0.post1") is not None
    assert parse_version("npm", "2.0.0.post1") is None
    assert update_type("npm", "1.2.3", "2.0.0") == "major"
    assert parse_version("npm", "v1.2.3") == parse_version("npm", "1.2.3")


def test_a_registry_url_set_by_name_comes_before_the_ecosystem_s_own_field() -> None:
    settings = Settings(
        pypi_url="https://index.example", registry_urls={"npm": "https://r.example"}
    )
    registries = Registries(settings, Http(settings))
    assert registries.metadata_url("pip", "Flask") == "https://index.example/pypi/Flask/json"
    assert registries.metadata_url("npm", "@s/p") == "https://r.example/@s%2Fp"


def test_registry_urls_from_the_environment_are_checked_urls() -> None:
    env = {"DEPBOT_REGISTRY_URLS": "toy=http://127.0.0.1:9/,npm=https://r.example"}
    settings = Settings.from_env(env)
    assert settings.registry_urls == {"toy": "http://127.0.0.1:9", "npm": "https://r.example"}
    assert "127.0.0.1:9" in settings.configured_hosts
    with pytest.raises(Exception, match="name=URL pairs"):
        Settings.from_env({"DEPBOT_REGISTRY_URLS": "no-equals-sign"})


@pytest.mark.parametrize("eco", list(ecosystems.ECOSYSTEMS.values()), ids=ecosystems.names())
def test_every_registered_ecosystem_supplies_the_whole_contract(eco: ecosystems.Ecosystem) -> None:
    members = {n for n in dir(ecosystems.Ecosystem) if not n.startswith("_")}
    members |= set(ecosystems.Ecosystem.__annotations__)
    assert sorted(n for n in members if not hasattr(eco, n)) == []
    assert eco.canonical_name(eco.name) and eco.parse_version("1.2.3") is not None
