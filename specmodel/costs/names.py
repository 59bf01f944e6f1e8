"""The cost models' names, in the order the page offers them (the default first)."""

CALIBRATED = "calibrated"
PER_KERNEL = "per-kernel"
WHOLE_PASS = "whole-pass"
COST_MODELS = (CALIBRATED, PER_KERNEL, WHOLE_PASS)
DEFAULT_COST_MODEL = CALIBRATED
