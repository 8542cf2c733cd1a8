"""A key in the package's own configuration file, named after it, is the package's
configuration (#27, config files as code)."""

from __future__ import annotations

from depbot.symbols.match import own_config_file


def test_the_package_s_own_configuration_file_is_named_after_it():
    for path in (".stylelintrc", "web/.stylelintrc.json", "stylelint.config.js", ".mocharc.yml"):
        assert own_config_file(path, path.split("/")[-1].lstrip(".").split("rc")[0].split(".")[0])
    assert own_config_file(".eslintrc.cjs", "eslint") and own_config_file(
        "x/.babelrc", "@scope/babel"
    )
    assert not own_config_file(".eslintrc.cjs", "stylelint")
    assert not own_config_file("src/stylelint.js", "stylelint")
