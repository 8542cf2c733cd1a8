"""A key in the package's own configuration file, named after it, is the package's
configuration (#27, config files as code)."""

from __future__ import annotations

from depbot.symbols.matchjs import own_config_file


def test_the_package_s_own_configuration_file_is_named_after_it():
    for path in (".stylelintrc", "web/.stylelintrc.json", "stylelint.config.js", ".mocharc.yml"):
        assert own_config_file(path, path.split("/")[-1].lstrip(".").split("rc")[0].split(".")[0])
    assert own_config_file(".eslintrc.cjs", "eslint") and own_config_file(
        "x/.babelrc", "@scope/babel"
    )
    assert not own_config_file(".eslintrc.cjs", "stylelint")
    assert not own_config_file("src/stylelint.js", "stylelint")


def test_a_file_named_after_the_tool_at_the_root_is_its_configuration():
    assert own_config_file("typedoc.js", "typedoc") and own_config_file("nodemon.json", "nodemon")
    assert own_config_file("Gruntfile.js", "grunt") and own_config_file(
        "web/karma.conf.js", "karma"
    )
    assert not own_config_file("lib/typedoc.js", "typedoc")
    assert not own_config_file("typedoc-theme.js", "typedoc")
