"""``python -m generator build [--docs DIR] [--default-configuration-only]``: regenerate the site's data, charts and essay."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from specmodel import ModelInputError

from .build import build
from .essay import TemplateBuildError

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="evaluate the grid and write docs/ (data, charts, essay)")
    b.add_argument("--docs", type=Path, default=ROOT / "docs", help="the MkDocs docs_dir (default: ./docs)")
    b.add_argument("--default-configuration-only", action="store_true",
                   help="write the data of the default GPU and target only (a quicker build for editing the "
                        "essay; the other configurations' links then find no data)")
    args = parser.parse_args(argv)
    try:
        build(args.docs, every_configuration=not args.default_configuration_only)
    except (ModelInputError, TemplateBuildError) as e:
        print(f"generator: build stopped, nothing written: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
