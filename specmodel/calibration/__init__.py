"""Calibration: the public measurements, the fit of the calibrated model's engine constants, and
the validation of every cost model against the measurements."""
