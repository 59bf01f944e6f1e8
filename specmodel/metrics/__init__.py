"""A reader's own speculative-decoding metrics: read them, fit the acceptance model, advise.

``parse``: vLLM's engine-log lines (V1 ``SpecDecoding metrics:``, V0 ``Speculative metrics:``),
Prometheus text scrapes of vLLM's or llama.cpp's ``spec_decode_*`` counters, llama-server's
``draft acceptance`` lines → a ``Reading``. ``fit``: the acceptance shape and α that reproduce
it. ``advice``: what the calibrated cost model predicts at the reader's state, the best γ at each
batch size and the batch sizes at which speculation pays. The page runs the same
parser and fit (docs/javascripts/metrics/); tests feed both the same texts.
"""
from .advice import Advice, advise
from .fit import AcceptanceFit, fit_acceptance
from .parse import MAX_TEXT_CHARS, MetricsInputError, Reading, parse_metrics

__all__ = ["Advice", "advise", "AcceptanceFit", "fit_acceptance", "MAX_TEXT_CHARS", "MetricsInputError",
           "Reading", "parse_metrics"]
