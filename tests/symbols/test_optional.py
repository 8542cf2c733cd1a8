"""``optional_dependency``: the uses of a feature the release leaves to an optional library
are hits only when nothing in the checkout installs that library (#27)."""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree

FORMS = (
    "from formkit import Form, StringField\n"
    "from formkit import validators\n"
    "from formkit.validators import DataRequired, Email\n\n"
    "class SignUp(Form):\n"
    "    email = StringField('Email', validators=[DataRequired(), Email()])\n"
)
QUERY = SymbolQuery(
    "pip", "formkit", "email_validator", "optional_dependency", arg="Email|validation"
)


def _search(root):
    return SymbolSearch(CodeSearch(root, Settings())).search(QUERY)


def test_the_feature_s_names_are_hits_when_no_manifest_lists_the_dependency(tmp_path):
    write_tree(tmp_path, {"requirements.txt": "formkit==2.2.1\n", "web/forms.py": FORMS})
    r = _search(tmp_path)
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("web/forms.py", 3, "strong")]
    assert "email_validator" in r.hits[0].why


def test_a_member_reached_through_the_module_object_is_a_hit_too(tmp_path):
    write_tree(tmp_path, {
        "requirements.txt": "formkit==2.2.1\n",
        "web/forms.py": "from formkit import validators\n\nCHECK = [validators.Email()]\n",
    })  # fmt: skip
    assert [(h.path, h.line) for h in _search(tmp_path).hits] == [("web/forms.py", 3)]


def test_the_requirement_is_met_by_a_manifest_in_any_spelling_or_an_extra(tmp_path):
    for manifest in ("Email-Validator>=1.1\nformkit==2.2.1\n", "formkit[email]==2.2.1\n"):
        write_tree(tmp_path, {"requirements.txt": manifest, "web/forms.py": FORMS})
        r = _search(tmp_path)
        assert r.hits == [] and "requirement is met" in r.note


def test_code_that_uses_nothing_named_like_the_feature_has_no_hit(tmp_path):
    write_tree(tmp_path, {
        "requirements.txt": "formkit==2.2.1\n",
        "web/forms.py": "from formkit.validators import DataRequired\n\nV = [DataRequired()]\n",
    })  # fmt: skip
    r = _search(tmp_path)
    assert r.hits == [] and "named like Email" in r.note
