import sys

from paths import ROOT

# The project's own packages import from a checkout even without an editable install.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
