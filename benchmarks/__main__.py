import sys

from .browser import bench_browser
from .model import bench_model
from .site import bench_site


def main() -> int:
    bench_model()
    bench_site()
    bench_browser()
    return 0


sys.exit(main())
