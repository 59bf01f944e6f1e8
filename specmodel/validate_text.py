"""``specmodel validate``: every measurement against each cost model, as a table a reader can
follow without the source: who measured it and with which engine, what the model was given for
the context it does not state, and which rows are tests (held to a tolerance) and which are not."""
from __future__ import annotations

import re

from .calibration.measurements import ONE_POINT_ENGINES, PASS_RATIO, STEP_TIME, TIME_SHARES, gamma_of
from .calibration.validate import UNKNOWN_CONTEXT_RANGE, summary
from .catalog import Catalog
from .costs import COST_MODELS
from .display import clip

# How each kind of context is found, said once under the table (found by a cold read:
# "[fitted context 562]" and "[implied context 343]" were nowhere explained).
CONTEXT_LEGEND = {
    "stated": "the study states it",
    "implied": "worked out from the study's stated input and output lengths: the input plus half the output "
               "(the average cached while decoding)",
    "fitted": "the study does not state it, so the calibration fits it as one more constant (the same for "
              "all of the study's profiling rows)",
}


def _fmt(quantity: str, values) -> str:
    if quantity == STEP_TIME:
        return f"{values[0] * 1e3:.2f} ms"
    if quantity == TIME_SHARES:
        return f"{values[0]:.0%}/{values[1]:.0%}"
    return f"{values[0]:.3f}"


def engine_name(catalog: Catalog, engine: str) -> str:
    """"SGLang", "TensorRT-LLM": the catalog's label without what it adds in brackets."""
    return catalog.engines[engine].label.split(" (")[0]


def setting_of(point, m, catalog: Catalog) -> str:
    """What a measurement ran, in the page's words (the model page's tables and this command's):
    the drafter (or plain decoding) at its γ, and the engine when it is not vLLM. A row the model
    cannot speak to has no point: its method column, as written (found by a cold read: this
    command wrote "plain decode (Fig.3 no-SD bar)" where the page wrote "plain decoding")."""
    if point is None:
        return m["method"].replace("plain decode", "plain decoding")
    what = catalog.drafters[point.drafter].label if point.drafter else "plain decoding"
    gamma = gamma_of(point, m)
    if point.drafter and gamma:
        what += f" at γ = {gamma}"
    if point.engine != "vllm":
        what += f" in {engine_name(catalog, point.engine)}"
    prompts = re.match(r"([\w-]+) prompts", m["context"])  # two runs that differ only in their prompts
    return what + (f", {prompts[1]} prompts" if prompts else "")


def _held(row, catalog: Catalog) -> str:
    """The "held" column: ok or MISS against the row's tolerance, or why the row is no test."""
    p = row.point
    if row.held:
        kind, tol = p.tolerance
        return ("ok" if row.within["calibrated"] else "MISS") + (f" (±{tol:g} pp)" if kind == "pp" else f" (±{tol:.0%})")
    if ONE_POINT_ENGINES.get(p.engine) == p.id:
        return f"no: sets {engine_name(catalog, p.engine)}'s step overhead"
    return "no: shown only"


def validate_text(rows: list, catalog: Catalog) -> str:
    """The table of ``rows`` (calibration.validate.validate's), a legend of the contexts and the
    summary over the held rows."""
    lines = ["Every measurement against each cost model. Step times and ratios: relative error; time shares "
             "(drafting/verification): the larger miss in percentage points. * read off a plot; vLLM unless "
             "another engine is named; held: the row's tolerance applies (the calibrated model is held to it). "
             "row: the measurement's id in specmodel/data/measurements-calibration.csv (`validate --data` "
             "reads another file).", ""]
    lines.append(f"{'row':>4}  {'setting':<50} {'measured':>11} " + " ".join(f"{n:>22}" for n in COST_MODELS)
                 + "  held")
    bases = set()
    cut = {}  # row id → its whole method, for each label the column cut
    for r in rows:
        m, p = r.measurement, r.point
        star = "*" if m.read_off_plot else " "
        batch = m["batch"]
        rest = ", " + (f"batch {batch}" if batch.isdigit() or batch == "not stated" else batch)
        # as much of the setting as the column leaves room for (cut with "…", never mid-word unsaid)
        words = setting_of(p, m, catalog)
        setting = clip(f"{clip(words, max(20, 50 - len(rest)))}{rest}", 50)
        if "…" in setting:
            cut[m.id] = words
        if r.reason:
            lines.append(f"{m.id:>4}{star} {setting:<50} not modelled: {r.reason}")
            continue
        if r.context_tokens is None:
            lo, hi = UNKNOWN_CONTEXT_RANGE
            preds = " ".join(f"{_fmt(p.quantity, (v[0],))}–{_fmt(p.quantity, (v[1],))}".rjust(22)
                             for v in r.predicted.values())
            lines.append(f"{m.id:>4}{star} {setting:<50} {_fmt(p.quantity, r.measured):>11} {preds}  "
                         f"context unknown: predicted over {lo:,}–{hi:,} tokens")
            continue
        cells = []
        for name in COST_MODELS:
            err = r.error[name]
            err_text = f"{err:+.1f} pp" if p.quantity == TIME_SHARES else f"{err:+.1%}"
            cells.append(f"{_fmt(p.quantity, r.predicted[name])} ({err_text})".rjust(22))
        bases.add(p.context_basis)
        lines.append(f"{m.id:>4}{star} {setting:<50} {_fmt(p.quantity, r.measured):>11} {' '.join(cells)}  "
                     f"{_held(r, catalog)}  [{p.context_basis} context {r.context_tokens:,.0f}]")
    if cut:
        # (found by a cold read: "draft model - draft/target…" did not say what row 100 measured)
        lines += ["", "Labels cut above, whole:"] + [f"  {row_id:>4} {method}" for row_id, method in cut.items()]
    lines += ["", "[… context N]: the tokens in each sequence's KV cache the row is priced at;"]
    lines += [f"  {basis}: {CONTEXT_LEGEND[basis]}" for basis in CONTEXT_LEGEND if basis in bases]
    lines += ["", "Summary over held rows (count, median |error|, worst |error|):"]
    for name, per in summary(rows).items():
        parts = []
        for quantity, (n, median, worst) in per.items():
            unit = " pp" if quantity == TIME_SHARES else ""
            scale = 1 if quantity == TIME_SHARES else 100
            label = {STEP_TIME: "step times", TIME_SHARES: "time shares", PASS_RATIO: "pass ratio"}[quantity]
            parts.append(f"{label} n={n} median {median * scale:.1f}{unit or '%'} worst {worst * scale:.1f}{unit or '%'}")
        lines.append(f"  {name:<11} " + "; ".join(parts))
    return "\n".join(lines)
