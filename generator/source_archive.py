"""The ``specmodel`` package as a source archive the site serves, so a reader can install the
command-line tool the pages quote (``pip install specmodel-<version>.tar.gz``).

The archive holds the package's modules, the data files the project's own install ships with
it, and a pyproject.toml of its own: the project's name, version, Python requirement, console
script and build backend, and of its dependencies only those the package imports. The bytes
depend on the files alone (fixed times and owners, sorted entries, no gzip time or name), so
two builds write the same archive and the data version moves only when the package does.
"""
from __future__ import annotations

import gzip
import io
import json
import re
import tarfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import specmodel

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(specmodel.__file__).resolve().parent
FOLDER = "downloads"
# What specmodel imports beyond the standard library (tests/test_generator.py holds it to the
# imports): the project's other dependencies build the site, not the model.
IMPORTS = ("numpy", "scipy")
# 1980-01-01: a wheel built from the archive is a zip, and zip cannot store an earlier time.
MTIME = 315532800
DESCRIPTION = ("The roofline cost model of speculative decoding behind the site "
               "'What speculative decoding really costs'.")


@dataclass(frozen=True)
class SourceArchive:
    name: str  # specmodel-0.1.0.tar.gz
    path: str  # where it goes under docs/
    data: bytes
    version: str
    python: str  # the oldest Python it installs on, e.g. 3.11

    def context(self) -> dict:
        """What the pages say about it."""
        return {"name": self.name, "path": self.path, "bytes": len(self.data), "version": self.version,
                "python": self.python}


def requirement_name(requirement: str) -> str:
    """``numpy>=1.26`` → ``numpy``."""
    return re.match(r"[A-Za-z0-9._-]+", requirement.strip())[0].lower()


def lowest_python(requires_python: str) -> str:
    """``>=3.11`` → ``3.11``; anything else is not a plain lower bound and stops the build."""
    if not requires_python.startswith(">=") or "," in requires_python:
        raise ValueError(f"pyproject.toml: requires-python {requires_python!r} is not a plain '>=' bound")
    return requires_python[2:].strip()


def pyproject(project: dict, build_system: dict, package_data: list[str]) -> str:
    """The archive's pyproject.toml. (TOML's basic strings read JSON's string escapes the same.)"""
    q = json.dumps
    dependencies = [d for d in project["dependencies"] if requirement_name(d) in IMPORTS]
    scripts = {k: v for k, v in project.get("scripts", {}).items() if v.startswith("specmodel.")}
    lines = [
        "[build-system]",
        f"requires = [{', '.join(q(r) for r in build_system['requires'])}]",
        f"build-backend = {q(build_system['build-backend'])}",
        "",
        "[project]",
        f"name = {q(project['name'])}",
        f"version = {q(project['version'])}",
        f"description = {q(DESCRIPTION)}",
        f"requires-python = {q(project['requires-python'])}",
        f"dependencies = [{', '.join(q(d) for d in dependencies)}]",
        "",
        "[project.scripts]",
        *[f"{name} = {q(target)}" for name, target in scripts.items()],
        "",
        "[tool.setuptools.packages.find]",
        'include = ["specmodel*"]',
        "",
        "[tool.setuptools.package-data]",
        f"specmodel = [{', '.join(q(p) for p in package_data)}]",
        "",
    ]
    return "\n".join(lines)


def package_files(package: Path, package_data: list[str]) -> list[Path]:
    """The package's modules and its data files, sorted; no caches."""
    modules = [p for p in package.rglob("*.py") if "__pycache__" not in p.parts]
    data = [p for pattern in package_data for p in package.glob(pattern)]
    return sorted(set(modules + data))


def _entry(name: str, size: int) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = size, MTIME, 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def tar_gz(members: list[tuple[str, bytes]]) -> bytes:
    """A .tar.gz of (name, bytes), in the order given; the same input gives the same bytes."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, content in members:
            tar.addfile(_entry(name, len(content)), io.BytesIO(content))
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def source_archive(project_file: Path = ROOT / "pyproject.toml", package: Path = PACKAGE) -> SourceArchive:
    """The archive of ``package``, described by ``project_file``'s metadata."""
    config = tomllib.loads(project_file.read_text(encoding="utf-8"))
    project = config["project"]
    package_data = config["tool"]["setuptools"]["package-data"]["specmodel"]
    top = f"{project['name']}-{project['version']}"
    members = [(f"{top}/pyproject.toml", pyproject(project, config["build-system"], package_data).encode())]
    members += [(f"{top}/{package.name}/{p.relative_to(package).as_posix()}", p.read_bytes())
                for p in package_files(package, package_data)]
    name = f"{top}.tar.gz"
    return SourceArchive(name, f"{FOLDER}/{name}", tar_gz(members), project["version"],
                         lowest_python(project["requires-python"]))
