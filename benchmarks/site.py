"""Each stage of `make site`: the generator's stages and the MkDocs build."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from generator.build import Timings, compute, write

ROOT = Path(__file__).resolve().parents[1]


def bench_site(print_fn=print) -> None:
    timings = Timings()
    start = time.perf_counter()
    files, _ = compute(timings=timings)
    with timings.stage("write"):
        write(ROOT / "docs", files)
    with timings.stage("mkdocs build"):
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"], cwd=ROOT, check=True)
    total = time.perf_counter() - start
    print_fn("site (make site)")
    for name, seconds in timings.stages.items():
        print_fn(f"  {name:<14} {seconds:6.2f} s")
    print_fn(f"  {'total':<14} {total:6.2f} s")
