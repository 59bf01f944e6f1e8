import sys

from .model import bench_model
from .site import bench_site


def main() -> int:
    bench_model()
    bench_site()
    try:
        from .browser import bench_browser
    except ImportError:  # the browser bench arrives with the page
        return 0
    bench_browser()
    return 0


sys.exit(main())
