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
    """Every generated file in memory ({path: bytes}) and the prose numbers, once per test run."""
    from generator.build import compute

    return compute()


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
    """The essay's two pages as rendered Markdown (str), before the build's version is stamped."""
    from generator.build import render_essay

    files, _ = render_essay(prepared_default)
    return {name: files[name].decode() for name in ("index.md", "model.md")}
