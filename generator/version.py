"""The data version: a hash of everything the build emits.

Every data file and every page carries it (the pages in a hidden element the essay template
writes); the page refuses data of another version and fetches files as ``?v=<version>``. It is
a hash of the emitted bytes themselves, so any change that reaches the reader — the model's
numbers, the layout of the files, their rounding, the charts, the prose — gives a new version,
and a build that changes nothing keeps it.
"""
from __future__ import annotations

import hashlib


def stamp(files: dict[str, bytes], placeholder: str) -> tuple[dict[str, bytes], str]:
    """Replace ``placeholder`` in every file by the version: the first 16 hex digits of SHA-256
    over the files' paths and bytes (with the placeholder in place)."""
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.encode() + b"\0")
        h.update(files[path])
        h.update(b"\0")
    version = h.hexdigest()[:16]
    mark = placeholder.encode()
    return {path: content.replace(mark, version.encode()) for path, content in files.items()}, version
