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
