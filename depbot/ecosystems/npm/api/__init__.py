"""The API model of an npm release: its ``package.json`` entry points and ``exports`` map,
its declarations and scripts read with tree-sitter, and its ``engines``."""
