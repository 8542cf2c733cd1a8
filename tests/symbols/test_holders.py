"""What a service class of the checkout hands out from the package: what a method returns."""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.holders import returned_by
from depbot.symbols.jslocal import reexported_from
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree

SERVICE = """import toastly from 'toastly';

const toast = toastly.mixin({ closeButton: true });

export class AlertService {
  constructor(private http: HttpClient) {}

  custom = () => {
    return toast;
  };

  get raw() { return toastly; }

  shown = () => toast.queue.length;

  either(flag: boolean) {
    if (flag) return toast;
    return null;
  }

  success(message: string) {
    return toast.fire({
      text: message,
      type: 'success',
    });
  }
}
"""


def test_what_a_method_of_a_class_returns_as_written():
    assert returned_by(SERVICE, "AlertService", "custom") == "toast"
    assert returned_by(SERVICE, "AlertService", "raw") == "toastly"
    assert returned_by(SERVICE, "AlertService", "shown") == "toast.queue.length"
    assert returned_by(SERVICE, "AlertService", "either") is None  # two values
    assert returned_by(SERVICE, "AlertService", "success") is None  # written over lines
    assert returned_by(SERVICE, "AlertService", "missing") is None
    assert returned_by(SERVICE, "OtherService", "custom") is None
    # a call of the method before its definition is not its definition
    called_first = "class A {\n  init() {\n    make();\n  }\n  make() { return lib.create(); }\n}\n"
    assert returned_by(called_first, "A", "make") == "lib.create()"


def test_a_barrel_re_exports_a_name_whole_or_by_name():
    text = "export * from './alert.service';\nexport { Api as Client } from './api';\n"
    assert reexported_from(text, "AlertService") == ["./alert.service"]
    assert reexported_from(text, "Client") == ["./alert.service", "./api"]
    assert reexported_from("export * from 'toastly';\n", "X") == []  # a package, not a file


def test_an_option_given_to_what_an_injected_service_hands_out_is_the_package_s(tmp_path):
    # `this.alerts.custom().fire({ type })` in a component: AlertService (through a barrel)
    # returns the toast the package made; `this.alerts.other().fire({ type })` returns
    # something else, and a field typed by another class is not the service
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "dependencies": {"toastly": "8"}}\n',
        "src/core/services/alert.service.ts": SERVICE.replace(
            "  shown =", "  other = () => {\n    return window.alerts;\n  };\n\n  shown ="),
        "src/core/services/index.ts": "export * from './alert.service';\n",
        "src/pages/form.component.ts": (
            "import { AlertService } from '../core/services';\n"
            "import { Dialog } from './dialog';\n\n"
            "export class FormComponent {\n"
            "  constructor(private alerts: AlertService, private dialog: Dialog) {}\n\n"
            "  remove() {\n"
            "    this.alerts.custom().fire({ type: 'question', showCancelButton: true });\n"
            "    this.alerts.other().fire({ type: 'question' });\n"
            "    this.dialog.custom().fire({ type: 'question' });\n"
            "  }\n}\n"
        ),
        "src/pages/dialog.ts": "export class Dialog { custom() { return null; } }\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "toastly", "type", "parameter")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    got = {(h.path, h.line): h.evidence for h in r.hits}
    assert got == {
        ("src/core/services/alert.service.ts", 28): "strong",
        ("src/pages/form.component.ts", 8): "strong",
    }
