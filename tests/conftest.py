import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
