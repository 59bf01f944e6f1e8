"""Where things are, for tests (imported by name: tests/ is on sys.path under pytest)."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
