"""The public names of one unpacked npm release: its entry points and what each exports.

``pkg`` and ``pkg/<sub>`` are modules (every subpath a ``require`` or ``import`` reaches);
``pkg:<name>`` / ``pkg/<sub>:<name>`` the names each exports (``default`` among them). An
entry point whose exports no file of the release shows is listed as a module only, with
``opaque`` as its kind: a used name under it cannot be looked up. A root entry that
``require`` loads (CommonJS) is ``cjs``: its default import is ``module.exports``, whose
members are the names it exports; ``pkg:default`` is listed when a default import gets that
module object (no ``__esModule`` mark). A stylesheet or other file code may import
(``pkg/dist/pkg.css``) is a ``file``; so is each file a tool may load by its path
(``node_modules/pkg/lib/x.js`` in ``angular.json``): JavaScript, declarations, stylesheets.
"""

from __future__ import annotations

from depbot.ecosystems.npm.api.model import (
    NpmPackage,
    asset_paths,
    deep_paths,
    interop_default,
    module_object_default,
    path_files,
    requirable,
    subpath_names,
)

MAX_SUBPATHS = 200


def npm_surface(package: NpmPackage, name: str) -> dict[str, str]:
    """Public path → kind (``module``, ``opaque``, ``export``) for the release ``package``."""
    out: dict[str, str] = {}
    for subpath in ["."] + [p for p in deep_paths(package) if p != "."][:MAX_SUBPATHS]:
        path = name if subpath == "." else f"{name}/{subpath[2:]}"
        names = subpath_names(package, subpath)
        out[path] = "module" if names is not None else "opaque"
        if subpath == "." and names is not None and requirable(package):
            out[path] = "cjs"
        for exported in sorted(names or ()):
            out[f"{path}:{exported}"] = "export"
        if subpath == "." and names is not None and interop_default(package):
            out.setdefault(f"{path}:default", "export")  # a default import: the module object
        if subpath == "." and names is None and module_object_default(package):
            out[f"{path}:default"] = "export"  # a value whose members no file shows
    for asset in asset_paths(package):  # `import 'pkg/dist/pkg.css'`: a file, no names
        out.setdefault(f"{name}/{asset[2:]}", "file")
    for rel in path_files(package):  # `"scripts": ["node_modules/pkg/lib/x.js"]`: by path
        out.setdefault(f"{name}/{rel}", "file")
    return out
