"""The site built by Zensical, Material for MkDocs' successor (it reads mkdocs.yml and runs no
MkDocs hooks): nothing the site needs may depend on MkDocs itself. Built into a temporary folder
from the same docs/, then opened in Chromium: the essay and the simulation must load and show
the model's numbers."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from yaml_env_tag import construct_env_tag

from .conftest import ROOT, serve
from .site_helpers import manifest, mismatches, wait_rendered

pytestmark = pytest.mark.browser


class ConfigLoader(yaml.SafeLoader):
    """YAML as MkDocs reads mkdocs.yml: `!ENV` takes an environment variable (site_url does)."""


ConfigLoader.add_constructor("!ENV", construct_env_tag)


@pytest.fixture(scope="module")
def zensical_url(artifacts):
    # Zensical wants docs/ and the site inside the config file's folder: the config and the site
    # go into a fresh folder under test-artifacts/ (git-ignored), removed afterwards.
    out = Path(tempfile.mkdtemp(prefix="zensical-", dir=ROOT / "test-artifacts"))
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=ConfigLoader)
    config["site_dir"] = str(out / "site")
    config_file = ROOT / f".zensical-test-{out.name}.yml"
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    try:
        result = subprocess.run([str(Path(sys.executable).with_name("zensical")), "build", "--strict",
                                 "--config-file", str(config_file)], capture_output=True, text=True, cwd=ROOT)
    finally:
        config_file.unlink()
    assert result.returncode == 0, result.stdout + result.stderr
    assert (out / "site" / "index.html").is_file() and (out / "site" / "data" / "manifest.json").is_file()
    server, url = serve(out / "site")
    yield url
    server.shutdown()
    server.server_close()
    shutil.rmtree(out, ignore_errors=True)


def test_the_zensical_build_loads_the_essay_and_the_simulation(new_context, zensical_url):
    page = new_context(base_url=zensical_url).new_page()
    page.goto("/?batch=64&drafter=ngram")
    wait_rendered(page, "?batch=64&drafter=ngram")
    state = {**manifest()["defaults"], "batch": 64, "drafter": "ngram"}
    assert mismatches(page, state) == []
    assert page.locator("h1").first.inner_text().startswith("What speculative decoding really costs")
    page.wait_for_function("() => document.querySelector('#simulation .spec-chart.is-live svg') !== null")
    page.goto("/model/")
    assert "The model" in page.locator("h1").first.inner_text()
