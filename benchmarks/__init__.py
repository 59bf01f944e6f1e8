"""`make bench`: speed measured side by side in one run (ratios, not absolute thresholds)."""
