"""``python -m generator build [--docs DIR]``: regenerate the site's data, charts and essay."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="evaluate the grid and write docs/ (data, charts, essay)")
    b.add_argument("--docs", type=Path, default=ROOT / "docs", help="the MkDocs docs_dir (default: ./docs)")
    args = parser.parse_args(argv)
    try:
        # Imported here: specmodel validates its catalog on import, and a malformed entry must
        # read as one line naming the entry and field, not a traceback.
        from .build import build

        build(args.docs)
    except Exception as e:
        if type(e).__name__ not in ("ModelInputError", "TemplateBuildError"):
            raise
        print(f"generator: build stopped, nothing written: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
