import sys

import pytest

from paths import ROOT

# The project's own packages import from a checkout even without an editable install.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def site():
    """The site's numbers (specmodel over the whole grid, once per test run)."""
    from generator.site_model import SiteModel
    from specmodel import default_catalog

    return SiteModel(default_catalog())


@pytest.fixture(scope="session")
def built():
    """Every generated file ({path relative to docs/: bytes}) and the prose numbers quoted.

    What the build wrote under docs/ (`make test` runs `make site` first), so the tests read the
    files the site serves, without building them a second time; a fresh compute() where docs/
    holds no build. A stale docs/ fails: test_builds_are_byte_identical holds it to a fresh build
    of the default configuration, the round trip holds every configuration's data to the model."""
    import json

    from generator.build import GENERATED_DIRS, GENERATED_FILES, PROSE_NUMBERS, compute

    docs = ROOT / "docs"
    if not all((docs / name).is_file() for name in (*GENERATED_FILES, PROSE_NUMBERS)):
        return compute()
    files = {name: (docs / name).read_bytes() for name in GENERATED_FILES}
    for directory in GENERATED_DIRS:
        files.update({p.relative_to(docs).as_posix(): p.read_bytes() for p in (docs / directory).rglob("*")
                      if p.is_file()})
    return files, json.loads(files[PROSE_NUMBERS])


@pytest.fixture(scope="session")
def prepared_default():
    """prepare() of the built-in catalog with the default configuration's data only, once per test
    run: the tests whose build differs from it only in its templates, or not at all, share it."""
    from generator.build import prepare

    return prepare(every_configuration=False)


@pytest.fixture(scope="session")
def default_build(prepared_default):
    """compute(every_configuration=False), from prepared_default: (files, quoted numbers)."""
    from generator.build import assemble

    return assemble(prepared_default)


@pytest.fixture(scope="session")
def rendered_pages(prepared_default):
    """The essay's two pages as rendered Markdown (str), before the build's version is stamped, the
    spans that keep a name on one line taken out (generator/typography.py: they change no word, and
    the tests read the words)."""
    from generator.build import render_essay
    from generator.typography import without_nowrap

    files, _ = render_essay(prepared_default)
    return {name: without_nowrap(files[name].decode()) for name in ("index.md", "model.md")}

