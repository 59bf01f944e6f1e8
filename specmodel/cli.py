"""Command line: ``specmodel evaluate | vllm-log | sweep | fit-metrics | catalog | claims | calibrate | validate``.

The only module of the package that does I/O. Options come from ``fields.FIELDS``. Bad input
exits with status 2 and one line that names the option and what it accepts; never a traceback,
and nothing is written.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import os
import sys
from dataclasses import replace
from importlib import resources
from pathlib import Path

from .breakdown import iteration_breakdown
from .calibration import fit as fitting
from .calibration.measurements import PASS_RATIO, STEP_TIME, TIME_SHARES, parse_measurements
from .calibration.validate import step_time_errors, validate
from .catalog import Catalog, default_catalog, load_catalog
from .catalog_text import catalog_text
from .display import alpha_text, decimals_beside_one, wrap
from .claims import SEED_TITLE, claim_words, evaluate_claims
from .costs import COST_MODELS
from .errors import ModelInputError
from .extrapolation import extrapolation_note
from .fields import FIELDS, FLOAT, INT, TENSOR_PARALLEL, nearest_on_axis, site_acceptance_shapes
from .metrics import advise, fit_acceptance, parse_metrics
from .metrics.advice import held_shape, nearest_batch
from .metrics.fit import FINE_ALPHAS
from .metrics.parse import grouped
from .metrics.named import deployment_names, named_checkpoint, named_drafter, named_target, names_target_exactly
from .metrics.report import (checkpoint_text, drafter_said, held_shape_note, models_said, named_gpus_note, named_models_text,
                             no_load, other_engine_note, reading_lines, report, thin_gains)
from .readouts import READOUT_KEYS, evaluate
from .state import State
from .sweep import MAX_SWEEP_STATES, parse_values, sweep
from .validate_text import validate_text
from .vllm import engine_log_line, engine_log_window, speculative_config_flag

DATA = resources.files("specmodel") / "data"
FITTED_MODULE = Path(__file__).resolve().parent / "calibration" / "fitted.py"


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (no usage dump) and exit status 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse hook
        self.exit(2, f"specmodel: error: {message}\n")


def _names(f, catalog: Catalog):
    return list(catalog.section(f.section)) if f.section else None


def _option(f, catalog: Catalog):
    def parse(text: str):
        try:
            return f.parse(text, _names(f, catalog))
        except ModelInputError as e:
            raise argparse.ArgumentTypeError(f"{e.problem}; allowed: {e.allowed}") from None

    parse.__name__ = f.name  # argparse names the option's type in its messages
    return parse


# --tp's default, in the same words for every command that takes it (found by a cold read: three
# wordings of one default): catalog.tensor_parallel_for.
TP_DEFAULT = ("the fewest GPUs that hold the target's and its largest drafter's weights with room for the KV "
              "caches, as the site gives each target; 1 for the essay's target")


def _add_state_options(parser: argparse.ArgumentParser, catalog: Catalog) -> None:
    for name, f in FIELDS.items():
        names = _names(f, catalog)
        choices = f" ({', '.join(names or f.choices)})" if (names or f.choices) else ""
        if f.kind in (INT, FLOAT) and f.low is not None:
            # what the model takes, and the page's grid where it is narrower (found by a cold read:
            # --gamma's help named no range; the CLI takes 1 to 32, the page 1 to 10)
            grid = f"; the site's pages show {min(f.grid):,g} to {max(f.grid):,g}" if f.grid and max(f.grid) < f.high else ""
            choices = f" ({f.allowed()}{grid})"
        # The drafter's default depends on the target: the default drafter if it drafts for it,
        # else the first of the target's family (_state).
        # α's default is the drafter's typical acceptance on chat for the target (measured where
        # published, else assumed; the table says which).
        default = None if name in ("drafter", "alpha", "tp") else f.default
        note = {"drafter": f"{f.default}, or the first drafter for the target",
                "tp": TP_DEFAULT,
                "alpha": "the drafter's typical α on chat for the target (see `specmodel catalog`)"}.get(name, f.default)
        parser.add_argument(f.option, dest=name, type=_option(f, catalog), default=default,
                            help=f"{f.help}{choices}; default {note}")
    parser.add_argument("--ignore-memory", action="store_true",
                        help="price a state even when its weights and KV caches do not fit in the GPUs")


# Fields whose default in a sweep is, as in evaluate, the target's own (specmodel.sweep.sweep takes
# [None]): found once, `sweep --target qwen3-30b-a3b` priced one H100 where evaluate and the page
# price two (0.664× against 0.797×), and a 70B target quietly on one 80 GB card.
SWEEP_AS_EVALUATE = {"drafter": f"{FIELDS['drafter'].default}, or the first drafter for each target",
                     "tp": TP_DEFAULT}


def _add_sweep_options(parser: argparse.ArgumentParser) -> None:
    for name, f in FIELDS.items():
        how = (f"comma list or start:stop[:step], each {f.allowed()}" if f.kind in (INT, FLOAT) and f.low is not None
               else "comma list or start:stop[:step]" if f.kind in (INT, FLOAT) else "comma list")
        default = f.default
        if name == "alpha":
            # the site's one α for every drafter: a product over drafters keeps one α axis
            default = f"{f.default}, for every drafter; evaluate's default is the drafter's typical α"
        elif name in SWEEP_AS_EVALUATE:
            default = SWEEP_AS_EVALUATE[name]
        parser.add_argument(f.option, dest=name, default=None, metavar="VALUES",
                            help=f"{f.help}: one value, a {how} (default {default})")


def _state(args: argparse.Namespace, catalog: Catalog) -> State:
    values = {name: getattr(args, name) for name in FIELDS}
    if values["tp"] is None:
        # the GPUs the site gives the target (one for the essay's): a 70B target on one L40S
        # would only be refused for its memory
        values["tp"] = catalog.tensor_parallel_for(values["gpu"], values["target"]) or FIELDS["tp"].default
    if values["drafter"] is None:
        values["drafter"] = catalog.default_drafter_for(values["target"])
    if values["alpha"] is None:
        values["alpha"] = _typical_chat(values["drafter"], values["target"], catalog).alpha
    return State(**values)


def _typical_chat(drafter: str, target: str, catalog: Catalog):
    catalog.check_state(State(drafter=drafter, target=target))  # one line if the drafter cannot draft for it
    return catalog.typical_acceptance[drafter][target]["chat"]


def _alpha_note(args: argparse.Namespace, state: State, catalog: Catalog) -> str | None:
    if args.alpha is not None:
        return None
    typical = _typical_chat(state.drafter, state.target, catalog)
    how = (f"{typical.basis}: mean acceptance length {typical.mean_acceptance_length:.2f} at γ = {typical.measured_gamma}"
           if typical.basis != "assumed" else "assumed")
    # found by a cold read: a decision-map cell at α 0.85 said 1.0004× (faster), evaluate left to
    # its default 0.8363 said 0.993× (slower), and nothing here said why
    on_grid = nearest_on_axis(FIELDS["alpha"].grid, typical.alpha)
    site = ("" if on_grid == typical.alpha else
            f"; the site's pages use {alpha_text(on_grid)}, the nearest α on their grid: --alpha {alpha_text(on_grid)} "
            "prices what they show")
    return f"α is {state.drafter}'s typical on chat for {state.target}, {how}; --alpha sets it{site}"


def gb_needed(memory_bytes: float) -> str:
    """Memory a state needs in GB, to a tenth and rounded up ("192.4 GB" for 192.3000001e9 bytes):
    a state that does not fit never reads as needing exactly what the GPUs hold. The site's
    "gb_needed" format (generator/formats.py) writes the same text."""
    return f"{math.ceil(float(memory_bytes) / 1e8) / 10:,.1f} GB"


def _check_memory(state: State, catalog: Catalog, r) -> None:
    """One line, exit 2, for a state that does not fit: how much it needs and what holds it."""
    if r.fits_in_memory:
        return
    gpus = catalog.gpu_group(state.gpu, state.tp)
    raise ModelInputError(
        "--batch, --context, --tp", f"{state.target} with {state.drafter} at batch {state.batch} and context {state.context} needs "
        f"{gb_needed(r.memory_required_bytes)}; {'one ' if state.tp == 1 else ''}{gpus.label} "
        f"hold{'s' if state.tp == 1 else ''} {gpus.memory_capacity_bytes / 1e9:,.0f} GB",
        "a batch and context that fit on the GPUs (fewer sequences, a shorter context, more GPUs), or --ignore-memory")


def _time(seconds: float) -> str:
    """A pass time as the page writes it, a digit or two finer: in ms, below 1 ms in µs (found
    by a cold read: "0.069 ms" here where the page wrote 68.6 µs, a digit coarser than the page),
    thousands grouped as every figure of the table (found by a cold read: "2741.005 ms")."""
    return f"{seconds * 1e6:.2f} µs" if seconds < 1e-3 else f"{seconds * 1e3:,.3f} ms"


def _draft_times_s(state: State, catalog: Catalog) -> tuple[float, float]:
    """(draft passes' time, the drafter's own overhead) of one iteration in seconds, at the step
    the verify readouts describe (full batch, context P + G/2 per sequence): the draft parts of
    specmodel.breakdown.iteration_breakdown, the draft passes being their kernels and launch floor
    together, as the essay quotes them (found by a cold read: its 23.01 ms of draft passes and
    7.50 ms of bookkeeping at 64 sequences were printed nowhere a reader could check them)."""
    parts = iteration_breakdown(
        catalog.cost_model(state.cost_model, state.engine), catalog.drafter(state.drafter, state.target),
        catalog.targets[state.target], catalog.gpu_group(state.gpu, state.tp), state.batch,
        state.context + state.output_tokens / 2, state.gamma)
    return float(parts["draft_passes"] + parts["draft_launch_floor"]), float(parts["drafter_overhead"])


def _table(state: State, catalog: Catalog, r, alpha_note: str | None = None) -> str:
    capacity = catalog.gpu_group(state.gpu, state.tp).memory_capacity_bytes
    draft_passes_s, drafter_overhead_s = _draft_times_s(state, catalog)
    pp = ", ".join(f"{p:.3f}" for p in r.per_position_acceptance)
    rows = [
        ("speedup", f"{r.speedup:.{decimals_beside_one(r.speedup, 3)}f}×"),
        ("speculative tokens/s", f"{r.spec_tokens_per_s:,.1f} tokens/s"),
        ("plain tokens/s", f"{r.plain_tokens_per_s:,.1f} tokens/s"),
        ("mean acceptance length", f"{r.mean_acceptance_length:.3f} tokens"),
        ("per-position acceptance", pp),
        ("draft share of time", f"{r.draft_time_share:.1%}"),
        ("draft passes time", _time(draft_passes_s)),
        ("drafter's own overhead", _time(drafter_overhead_s)),
        ("arithmetic ratio", f"{r.arithmetic_ratio:.{decimals_beside_one(r.arithmetic_ratio, 3)}f}×"),
        ("verify pass bytes", f"{r.verify_bytes / 1e9:,.3f} GB"),
        ("verify pass FLOPs", f"{r.verify_flops / 1e12:,.4f} TFLOP"),
        ("verify pass time", _time(r.verify_time_s)),
        ("verify memory time", _time(r.verify_memory_time_s)),
        ("verify arithmetic time", _time(r.verify_compute_time_s)),
        ("tensor cores idle (verify)", f"{r.tensor_core_idle_fraction:.1%}"),
        ("target weights", f"{r.target_weight_bytes / 1e9:,.3f} GB"),
        ("draft weights", f"{r.draft_weight_bytes / 1e9:,.3f} GB"),
        ("target KV cache per token", f"{r.target_kv_bytes_per_token / 1e3:,.1f} kB"),
        ("draft KV cache per token", f"{r.draft_kv_bytes_per_token / 1e3:,.1f} kB"),
        ("memory required", f"{gb_needed(r.memory_required_bytes)} of {capacity / 1e9:.0f} GB"
         + ("" if r.fits_in_memory else "  (does not fit)")),
    ]
    engine = f", engine {state.engine}" if state.cost_model == "calibrated" else ""
    gpus = f"{state.tp} × {state.gpu}" if state.tp > 1 else state.gpu
    header = (f"{state.target} on {gpus}, {state.cost_model} cost model{engine}: batch {state.batch}, "
              f"context {state.context}, drafter {state.drafter}, γ={state.gamma}, α={alpha_text(state.alpha)}, "
              f"{state.acceptance}, {state.workload}")
    width = max(len(k) for k, _ in rows)
    note = extrapolation_note(state, catalog)
    notes = [f"  ({n})" for n in (alpha_note, note) if n]
    return "\n".join([header] + [f"  {k:<{width}}  {v}" for k, v in rows] + notes)


# The fields a reader of fit-metrics sets; the fit sets γ, α and the acceptance shape.
FIT_METRICS_FIELDS = ("gpu", "target", "tp", "drafter", "batch", "context", "workload", "cost_model")
# What a drafter option changes in fit-metrics' answer, said in its notes.
DRAFTER_PRICES = "it prices the draft passes; acceptance comes from the text"


def _fit_metrics(args, catalog: Catalog) -> str:
    if args.file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(args.file).read_text(encoding="utf-8", errors="replace")
        except OSError as e:  # (found by a cold read: "[Errno 2] No such file or directory", unnamed)
            raise ModelInputError("file", f"{args.file!r} cannot be read ({e.strerror or e})",
                                  "a saved engine log or Prometheus scrape, or - for standard input") from None
    reading = parse_metrics(text)
    notes = []
    fitted_reading = reading
    top = max(FIELDS["gamma"].grid)
    if args.site_grid and reading.per_position_acceptance and len(reading.per_position_acceptance) > top:
        # the page's simulation drafts at most `top` positions, and its fit uses those, in these words
        # (views/metrics.js; found by a cold read: the page priced γ = 10 where this priced γ = 15)
        fitted_reading = replace(reading, per_position_acceptance=reading.per_position_acceptance[:top], gamma=top)
        notes.append(f"The text has {len(reading.per_position_acceptance)} positions; the simulation drafts at most "
                     f"{top}, so the fit uses the first {top}.")
    try:
        fit = fit_acceptance(fitted_reading, FIELDS["alpha"].grid if args.site_grid else FINE_ALPHAS)
    except ModelInputError:
        # partial input: say what was read, then (exit 2) what is missing; the note the error
        # states (fit_acceptance: the reading's last) is said once, in the error (found once: "The
        # counters went down between the scrapes…" printed twice)
        print(json.dumps({"reading": reading.as_dict()}) if args.json
              else "\n".join(reading_lines(reading, leave_out=reading.notes[-1:])))
        raise
    # more draft positions or running requests than the model prices were refused by parse_metrics,
    # in the page's words (parse.js)
    values = {name: getattr(args, name) for name in FIT_METRICS_FIELDS}
    if values["batch"] is None:
        # a count of 0 (idle lines, or a gauge scraped between requests) tells no load either
        if reading.running_requests:
            values["batch"] = max(1, round(reading.running_requests))
            told = ("vllm:num_requests_running in the scrape" if reading.source.startswith("Prometheus")
                    and not reading.running_requests_from_engine_lines
                    else "the engine log lines' Running: N reqs (see the note above)")
            if args.site_grid:
                # the page prices the grid batch nearest the load, and says so (views/metrics.js)
                values["batch"] = nearest_batch(reading.running_requests)
                if values["batch"] != reading.running_requests:
                    told += (f"; {grouped(reading.running_requests)} running requests: the simulation's nearest "
                             f"batch size on its doubling scale is {values['batch']:,}, as the page snaps it")
            notes.append(f"batch {values['batch']}: {told}; --batch sets it")
        else:
            values["batch"] = FIELDS["batch"].default
            notes.append(f"batch {values['batch']}: {no_load(reading.running_requests)}; --batch sets it")
    # the target and drafter the text names, where the catalog has them and no option says otherwise
    # (found by a cold read: a log naming Llama-3.1-8B-Instruct and its EAGLE-3 head was priced as
    # Qwen3-8B with a draft model); the page's paste box does the same (views/metrics.js)
    names = deployment_names(catalog)
    text_target, text_drafter = named_target(reading, names), named_drafter(reading, names)
    target_given = values["target"] is not None
    if not target_given:
        values["target"] = text_target or FIELDS["target"].default
    if text_target and text_target == values["target"] and not names_target_exactly(reading, names):
        # a variant of a catalog target, --target naming it or not (found by cold reads:
        # Qwen3-30B-A3B-Instruct-2507 priced as Qwen3-8B; then said only without --target)
        target = catalog.targets[text_target]
        notes.append(f"target {text_target}: the text names {models_said(reading)}, the nearest the catalog has being "
                     f"{target.label}, '{target.hf_id}'; --target sets the target priced")
    elif text_target and not target_given:
        notes.append(f"target {text_target}: the text names it, {models_said(reading)}; --target sets the target priced")
    default_drafter = values["drafter"] is None
    if default_drafter:
        values["drafter"] = (text_drafter if text_drafter in catalog.drafters_for(values["target"])
                             else catalog.default_drafter_for(values["target"]))
    said = drafter_said(reading)
    if said and named_checkpoint(reading, values["drafter"], values["target"], names):
        if default_drafter:
            notes.append(f"drafter {values['drafter']}: the text names it, {said} ({reading.startup['said_in']}); "
                         f"--drafter sets the drafter priced ({DRAFTER_PRICES})")
    elif said:
        # the kind the text names, with the checkpoint the catalog has for this target (found by a
        # cold read: a Llama head said to be priced, on a Qwen3 target, where its own head was)
        priced = (f"; this prices {checkpoint_text(catalog, values['drafter'], values['target'], names)}"
                  if values["drafter"] == text_drafter else "")
        if text_drafter and text_drafter not in catalog.drafters_for(values["target"]):
            # (found by a cold read: a Qwen3 draft model named for a Llama target, replaced unexplained)
            priced = (f"; the catalog's {catalog.drafters[text_drafter].label} cannot draft for "
                      f"{catalog.targets[values['target']].label} (another model family)")
        notes.append(f"drafter {values['drafter']}: the text names the drafter {said} ({reading.startup['said_in']}){priced}; "
                     f"--drafter sets the drafter priced ({DRAFTER_PRICES})")
    elif default_drafter:
        notes.append(f"drafter {values['drafter']}: --drafter sets it ({DRAFTER_PRICES})")
    named = named_models_text(reading, values["target"], names)
    if named:
        notes.append(f"target {values['target']}: the text names the model {named}, not "
                     f"{catalog.targets[values['target']].label}; --target sets the target priced")
    engine_note = other_engine_note(reading.source)
    if engine_note:
        notes.append(engine_note)
    # the GPUs the text's start-up line names, for the target it names, where the model prices that
    # many and the site's grid is not asked for (found by cold reads: a log on 2 GPUs priced on 4,
    # unsaid; a text's count applied to another target the reader asked for)
    text_tp = (reading.startup or {}).get("tensor_parallel_size") if values["target"] == text_target else None
    gpus_why = "--tp sets the GPUs priced"
    if values["tp"] is None:
        # else the GPUs the site (and evaluate) gives the target: found once, Qwen3-32B priced on
        # one H100 here and on two in the page's paste box
        values["tp"] = catalog.tensor_parallel_for(values["gpu"], values["target"]) or FIELDS["tp"].default
        held = (f"{catalog.targets[values['target']].label} on {values['tp']} GPU{'s' if values['tp'] > 1 else ''}")
        if text_tp in TENSOR_PARALLEL and not args.site_grid:
            values["tp"] = text_tp
            notes.append(f"tp {text_tp}: the text names it, tensor_parallel_size={text_tp} ({reading.startup['said_in']}); "
                         f"{gpus_why}")
        elif text_tp in TENSOR_PARALLEL:
            gpus_why = (f"the site's data hold {held} only; without --site-grid the text's {text_tp} "
                        f"GPU{'s are' if text_tp > 1 else ' is'} priced")
        else:
            gpus_why = (f"the model prices {', '.join(map(str, TENSOR_PARALLEL[:-1]))} or {TENSOR_PARALLEL[-1]} GPUs, so this "
                        f"prices {held}, as the site does; {gpus_why}")
    gpus_note = named_gpus_note(reading, values["tp"], why=gpus_why) if text_tp is not None else None
    if gpus_note:
        notes.append(gpus_note)
    acceptance = fit.shape
    if args.site_grid:
        # the page can show only the shapes its data hold for the configuration (found once: the
        # page priced falling on H200 at 2.09×, this command rising at 2.16×, for one log)
        acceptance = held_shape(fit, site_acceptance_shapes(values["gpu"], values["target"], values["tp"]))
        if acceptance != fit.shape:
            notes.append(held_shape_note(fit, acceptance))
    state = State(**values, gamma=fit.gamma, alpha=fit.alphas[acceptance], acceptance=acceptance)
    catalog.check_state(state)
    advice = advise(state, fit, catalog, acceptance)
    step_time_error = _step_time_errors(catalog).get(state.cost_model)
    if args.json:
        return json.dumps({"reading": reading.as_dict(), "fit": fit.as_dict(), "advice": advice.as_dict(),
                           "notes": notes, "step_time_error": step_time_error,
                           "thin_gain_batches": thin_gains(advice, step_time_error)})
    return report(reading, fit, advice, catalog, notes, step_time_error)


CLAIMS_LEGEND = ("published: the essay's figure, from one random run of its own simulation, so it differs from the "
                 "model's expectation by that run's chance; this model: the value this package's whole-pass model "
                 "gives, the model fitted to reproduce the essay's figures. --check also compares each value with the one "
                 "recorded beside the figure.")
CLAIMS_CHECK_LEGEND = ("reference: the whole-pass model's value recorded beside the figure when the model was written "
                       "down, which this model must give within the row's relative tolerance (the exit status is 1 "
                       "where it does not). It gives it to the digits shown except where it follows vLLM's "
                       "arithmetic: the engine log's average draft acceptance rate is accepted / drafted of "
                       "whole-token counts, where the reference divides the unrounded E[L] − 1 by γ.")


def _claims(check: bool) -> tuple[str, bool]:
    """The published figures beside the model's; with ``check``, beside the recorded reference
    values too, and whether the model gives every one of them within its tolerance. (Found by a
    cold read: the reference and tolerance columns, shown by default, read as a test report.)"""
    rows = evaluate_claims((DATA / "essay-claims.csv").read_text(encoding="utf-8"))
    legend = CLAIMS_LEGEND + (" " + CLAIMS_CHECK_LEGEND if check else "")
    lines = [f"The figures published in '{SEED_TITLE}', each beside this package's whole-pass model.",
             wrap(legend, 100, "", ""), "",
             f"{'id':<22} {'published':>10} {'this model':>11}"
             + (f" {'reference':>11} {'tolerance':>9}" if check else "") + "  quantity"]
    for row in rows:
        outside = "" if row["ok"] or not check else "  OUTSIDE its tolerance"
        lines.append(f"{row['id']:<22} {row['seed_value']:>10} {row['ours']:>11.6g} "
                     + (f"{row['expected']:>11.6g} {'±' + format(row['tolerance'], '.1%'):>9} " if check else "")
                     + f" {claim_words(row)}{outside}")
    missed = sum(not row["ok"] for row in rows)
    if check:
        lines.append(f"this model gives all {len(rows)} reference values within their tolerance" if not missed
                     else f"this model misses {missed} of the {len(rows)} reference values by more than their tolerance")
    return "\n".join(lines), not missed or not check


def _measurements(path: str | None):
    text = Path(path).read_text(encoding="utf-8") if path else (DATA / "measurements-calibration.csv").read_text(
        encoding="utf-8")
    return parse_measurements(text), text


def _unit(e, p) -> str:
    if p.unit == "µs":
        return f"{e.value * 1e6:.3g} ± {e.stderr * 1e6:.2g} µs"
    if p.unit == "ms":
        return f"{e.value * 1e3:.3g} ± {e.stderr * 1e3:.2g} ms"
    if p.unit == "tokens":
        return f"{e.value:.0f} ± {e.stderr:.0f} tokens"
    return f"{e.value:.3f} ± {e.stderr:.3f}"


def _calibrate(args, catalog: Catalog) -> str:
    measurements, text = _measurements(args.data)
    result = fitting.fit(measurements, catalog)
    lines = [f"Fit: {result.summary()}.", "", "vLLM constants (one standard error):"]
    for p in (*fitting.PARAMETERS, fitting.PROFILING_CONTEXT):
        e = result.constants.get(p.name, result.profiling_context)
        flag = "  (at the bound of its range: no standard error)" if e.at_bound else ""
        lines.append(f"  {p.name:<34} {_unit(e, p)}{flag}")
    for name, value in fitting.FIXED.items():
        lines.append(f"  {name:<34} {value:g} (fixed, not fitted)")
    for engine, e in result.one_point.items():
        lines.append(f"  {engine} step_overhead_s{'':<{20 - len(engine)}} {e.value * 1e3:.3g} ± {e.stderr * 1e3:.2g} ms"
                     f" (one step time, with vLLM's other constants)")
    lines += ["", "Each fitted point: measured, model, (model − measured) / σ:"]
    for r in result.residuals:
        p = r.point
        if p.quantity == STEP_TIME:
            shown = f"{r.measured[0] * 1e3:.3f} ms  {r.predicted[0] * 1e3:.3f} ms"
        elif p.quantity == TIME_SHARES:
            shown = (f"drafting/verification {r.measured[0]:.0%}/{r.measured[1]:.0%}  "
                     f"{r.predicted[0]:.1%}/{r.predicted[1]:.1%}")
        else:
            shown = f"{r.measured[0]:.3f}  {r.predicted[0]:.3f}"
        z = ", ".join(f"{x:+.2f}" for x in r.normalized)
        lines.append(f"  row {p.id:>4} {p.study:<16} {p.quantity:<12} {shown}  [{z}]")
    if args.write:
        FITTED_MODULE.write_text(fitting.fitted_module(result, hashlib.sha256(text.encode()).hexdigest()),
                                 encoding="utf-8")
        lines += ["", f"wrote {FITTED_MODULE}"]
    else:
        lines += ["", "nothing written (--write stores these constants in specmodel/calibration/fitted.py)"]
    return "\n".join(lines)


def _step_time_errors(catalog: Catalog) -> dict[str, float]:
    """Each cost model's median error on the packaged step-time measurements (validate.step_time_errors)."""
    from .calibration.fitted import FITTED

    measurements, _ = _measurements(None)
    context = FITTED["vllm"]["nuisance"]["profiling_context_tokens"]["value"]
    return step_time_errors(validate(measurements, catalog, context))


def _validate(args, catalog: Catalog) -> str:
    from .calibration.fitted import FITTED

    measurements, _ = _measurements(args.data)
    context = FITTED["vllm"]["nuisance"]["profiling_context_tokens"]["value"]
    return validate_text(validate(measurements, catalog, context), catalog)


def write_rows(columns: dict, fmt: str, stream) -> None:
    """Write a sweep's columns as CSV (a list as JSON text) or as JSON lines."""
    keys = list(columns)
    rows = zip(*(columns[k] for k in keys))
    if fmt == "jsonl":
        for row in rows:
            stream.write(json.dumps(dict(zip(keys, row))) + "\n")
        return
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(keys)
    for row in rows:
        writer.writerow([json.dumps(v) if isinstance(v, list) else v for v in row])


def build_parser(catalog: Catalog) -> argparse.ArgumentParser:
    parser = _Parser(prog="specmodel", description="What speculative decoding costs: cost models of one GPU.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ev = sub.add_parser("evaluate", help="every readout at one state")
    _add_state_options(ev, catalog)
    ev.add_argument("--json", action="store_true", help="one JSON object keyed by the readout names, unrounded")
    log = sub.add_parser("vllm-log", help="vLLM's --speculative-config and SpecDecodingLogging line for a state")
    _add_state_options(log, catalog)
    sw = sub.add_parser("sweep", help="every readout over a product of values: CSV or JSON lines")
    _add_sweep_options(sw)
    sw.add_argument("--format", choices=("csv", "jsonl"), default="csv", help="output format (default csv)")
    cl = sub.add_parser("claims", help=f"every figure published in '{SEED_TITLE}', beside the whole-pass model's value",
                        description=CLAIMS_LEGEND)
    cl.add_argument("--check", action="store_true", help="also the reference value recorded beside each figure and "
                    "its tolerance; exit status 1 where this model misses one")
    cal = sub.add_parser("calibrate", help="fit the calibrated model's constants to the measurements")
    cal.add_argument("--data", help="the measurements CSV (default: the packaged one)")
    cal.add_argument("--write", action="store_true", help="store the fitted constants in specmodel/calibration/fitted.py")
    fm = sub.add_parser("fit-metrics", help="fit acceptance to vLLM's spec-decode log lines or Prometheus counters, "
                        "and say what γ the model recommends")
    fm.add_argument("file", help="a saved engine log or /metrics scrape, or - for standard input")
    for name in FIT_METRICS_FIELDS:
        f = FIELDS[name]
        names = _names(f, catalog)
        choices = f" ({', '.join(names or f.choices)})" if (names or f.choices) else ""
        default = None if name in ("target", "drafter", "batch", "tp") else f.default
        said = {"tp": TP_DEFAULT,
                "target": f"the model the text names where the catalog has it, else {f.default}",
                "drafter": f"the drafter a vLLM start-up line in the text names where it drafts for the target, else "
                           f"{f.default}, or the first drafter for the target"}.get(name, f"from the text, else {f.default}")
        fm.add_argument(f.option, dest=name, type=_option(f, catalog), default=default,
                        help=f"{f.help}{choices}; default {default if default is not None else said}")
    fm.add_argument("--site-grid", action="store_true", help="fit α on the site's grid (steps of 0.05), snap the running requests to "
                    "the site's nearest batch size and price only the acceptance shapes the site's data hold for the "
                    "configuration, as the page does")
    fm.add_argument("--json", action="store_true", help="one JSON object: reading, fit, advice, notes, step_time_error (the cost model's median error on "
                    "measured step times) and thin_gain_batches (the loads where speculation gains less than it)")
    sub.add_parser("catalog", help="every GPU, model, drafter and engine constant, with its figures and source")
    val = sub.add_parser("validate", help="every cost model against every measurement")
    val.add_argument("--data", help="the measurements CSV (default: the packaged one)")
    return parser


def _run(args: argparse.Namespace, catalog: Catalog) -> int:
    """The chosen subcommand; its exit status."""
    if args.command == "claims":
        text, ok = _claims(args.check)
        print(text)
        return 0 if ok else 1
    if args.command == "calibrate":
        # The fit needs no engine: it runs even when the stored constants are broken.
        print(_calibrate(args, load_catalog(engine_entries={})))
        return 0
    if args.command == "validate":
        print(_validate(args, catalog))
        return 0
    if args.command == "sweep":
        values = {name: [None] if name in SWEEP_AS_EVALUATE and getattr(args, name) is None
                  else parse_values(f, getattr(args, name), catalog) for name, f in FIELDS.items()}
        rows = sweep(values, catalog)
        write_rows(rows, args.format, sys.stdout)
        return 0
    if args.command == "catalog":
        print(catalog_text(catalog))
        return 0
    if args.command == "fit-metrics":
        print(_fit_metrics(args, catalog))
        return 0
    state = _state(args, catalog)
    catalog.check_state(state)
    r = evaluate(state, catalog=catalog)
    if not args.ignore_memory:
        _check_memory(state, catalog, r)
    if args.command == "evaluate":
        if args.json:
            print(json.dumps({k: v for k, v in r.as_dict().items() if k in READOUT_KEYS}))
        else:
            print(_table(state, catalog, r, _alpha_note(args, state, catalog)))
    else:
        print(speculative_config_flag(state, catalog))
        print(engine_log_line(engine_log_window(state, r)))
        note = _alpha_note(args, state, catalog)
        if note:  # which α the line is for: the page's simulation starts every drafter at 0.75
            print(f"# {note}")
    return 0


def _error_text(e: ModelInputError) -> str:
    """``e`` in argparse's words where the value came in through an option or the file argument
    ("argument --drafter: …", as argparse writes a bad --tp), else as it is (a field of a pasted
    text, a catalog entry). Found by a cold read: one run said "argument --tp:", the next
    "--batch:", "drafter:", "memory:" and "file:"."""
    text = str(e)
    field = FIELDS[e.field].option if e.field in FIELDS else e.field
    if field.startswith("--") or field == "file":
        return f"argument{'s' if ', ' in field else ''} {field}{text[len(e.field):]}"
    return text


def commands(catalog: Catalog) -> list[tuple[str, str]]:
    """[(command, its one-line help)] for every ``specmodel`` command, in ``--help``'s order: the
    model page lists them from here, so none goes unnamed (found by a cold read: sweep and
    fit-metrics were missing from the page's list)."""
    sub = next(a for a in build_parser(catalog)._actions if isinstance(a, argparse._SubParsersAction))
    return [(action.dest, action.help) for action in sub._choices_actions]


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    try:
        catalog = default_catalog()
    except ModelInputError as e:
        if "calibrate" not in args_list:
            print(f"specmodel: error: catalog: {e}", file=sys.stderr)
            return 2
        catalog = load_catalog(engine_entries={})
    args = build_parser(catalog).parse_args(argv)
    try:
        status = _run(args, catalog)
        sys.stdout.flush()  # a closed pipe raises here, not at exit where nothing can catch it
        return status
    except ModelInputError as e:
        print(f"specmodel: error: {_error_text(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader stopped reading (`specmodel sweep … | head`): not an error of ours; the
        # Python docs' recipe points stdout at devnull so the exit's flush cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as e:
        print(f"specmodel: error: {e}", file=sys.stderr)
        return 2


__all__ = ["main", "build_parser", "MAX_SWEEP_STATES"]
