"""The checkout itself: what a maintainer clones."""
import os
import re

from paths import ROOT

# What the Makefile, the build and pytest make in a checkout, and git's own folder.
MADE = {".git", ".venv", "site", "test-artifacts", "build", "__pycache__", ".pytest_cache", ".hypothesis"}
PLAIN_NAME = re.compile(r"[A-Za-z0-9._+-]+")


def unplain_names(root) -> list[str]:
    """Every file or folder under `root` (outside MADE and *.egg-info) whose name is not plain."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in MADE and not d.endswith(".egg-info")]
        found += [os.path.relpath(os.path.join(folder, n), root) for n in dirs + files if not PLAIN_NAME.fullmatch(n)]
    return found


def test_every_name_in_the_checkout_is_plain():
    """Found once: an empty file named after a line of a probe script (a shell heredoc's
    leftover) committed in the root. A name with quotes, spaces or brackets is such a slip."""
    assert unplain_names(ROOT) == []


def test_the_name_check_can_fail(tmp_path):
    (tmp_path / "indow.addEventListener('popstate', () => x)").touch()
    (tmp_path / "fine.py").touch()
    assert unplain_names(tmp_path) == ["indow.addEventListener('popstate', () => x)"]
