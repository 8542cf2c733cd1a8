"""The built corpus and the download cache hold third-party code: never collect it."""

collect_ignore = ["built", ".downloads"]
