"""The text ``specmodel fit-metrics`` prints: what was read, the fit, and the model's advice."""
from __future__ import annotations

import json

from ..catalog import Catalog
from ..display import alpha_text, decimals_beside_one
from ..extrapolation import extrapolation_note
from ..fields import FIELDS
from ..vllm import tensor_parallel_flag
from .advice import DYNAMIC_SD_DOCS, Advice
from .fit import BELOW_GRID, POOR_FIT, V0_RATE, AcceptanceFit, PER_POSITION, residual_decimals
from .named import named_checkpoint, named_target, served_models
from .parse import Reading, _shown, grouped, quoted_name as _quoted


# Where the reader's load does not fit in memory (the page's NO_ROOM, views/metrics.js): its best γ is
# a number on paper, not advice.
NO_ROOM = "the load does not fit in memory: no γ there"


# Capitalised words a note may begin with that are names, kept as written after "note:".
_NAMES = {"Prometheus", "Llama", "Medusa"}


def note_text(note: str) -> str:
    """A note as the command line prints it after "note: ": from a lower-case letter, as its own
    notes begin ("batch 64: …"), where the page sets the same note as a sentence ("One scrape: …"
    → "one scrape: …"; found by a cold read: notes in two cases). Only an ordinary capitalised
    word is lowered: "V0", "EAGLE-3", "vLLM", "γ" and names stay as written."""
    first = note.split(" ", 1)[0].rstrip(":,;")
    if first.isascii() and first.isalpha() and first[0].isupper() and first[1:].islower() and first not in _NAMES:
        return note[0].lower() + note[1:]
    return note


def best_gamma_tail(fits: bool, pays: bool) -> str:
    """What follows "best γ at … (speedup)": whether it is slower than plain decoding, and whether
    the load fits, as the summary and the advice under it say (views/metrics.js bestGammaTail;
    found once: "Best γ at 256 sequences: 2 (0.78×)." under "no γ there: the load does not fit")."""
    if not fits:
        return f", {'but' if pays else 'slower than plain decoding, and'} {NO_ROOM}"
    # (what to do then, leave speculation off, the advice says once, where the flag would be)
    return "" if pays else ", slower than plain decoding"


def no_load(running: float | None) -> str:
    """Why the batch priced is not the text's (views/metrics.js noLoad): it has no running count, or
    one of 0, idle, in which nothing is drafted (found once: the page priced the simulation's batch,
    256, for a V0 line and did not say so)."""
    if running is None:
        return "the text does not say how many requests were running"
    return f"the text reports {running:g} running requests (idle), which tells no load"


# The γ-by-load flag, said alike here and on the page (views/metrics.js; found by a cold read: the
# sentence had no verb, gave a vLLM version no source gives, and left out the limits vLLM's page states
# under "Limitations" for the feature).
DYNAMIC_SD_SCHEDULE = ("one flag sets γ for every batch size of the table, each range covering the loads nearest one "
                       "of them (as the simulation rounds a load), with γ 0 (no drafting) where no γ pays or the load "
                       "does not fit in memory")
DYNAMIC_SD_LIMITS = ("vLLM's page says the feature was tested with EAGLE, EAGLE-3 and DFlash (a drafter that "
                     "guesses a whole block of tokens in one pass) only, and that vLLM turns it off under data "
                     "parallelism (--data-parallel-size above 1)")
# ... and in its place for a text from several data-parallel engines, where the flag would be off
# (found by a cold read: offered beside the note that the text comes from two such engines)
DYNAMIC_SD_OFF = ("no γ-by-load flag: your text comes from several data-parallel engines, and vLLM turns dynamic "
                  "speculative decoding off under data parallelism; each engine runs the fixed γ above")


def other_engine_note(source: str) -> str | None:
    """What the answer is for a text another engine wrote (views/metrics.js otherEngineNote): the
    prices are vLLM's and so are the flags (found by a cold read: a llama-server log was answered
    with vLLM's --speculative-config and nothing said llama.cpp has no such flag). ``source`` is a
    Reading's; None for vLLM's texts."""
    if "llama" not in source:  # "llama-server log", "Prometheus (llama.cpp)"
        return None
    return ("the text comes from llama.cpp's server; the answer prices vLLM, the engine the calibrated model is fitted "
            "to, and its flags are vLLM's: llama-server sets the tokens it drafts with --draft-max")


def named_gpus_note(reading: Reading, tp: int, *, why: str) -> str | None:
    """Where a text's vLLM start-up line names another number of GPUs than ``tp``, the one
    priced: "tp 4: the text names tensor_parallel_size=2 (vLLM's start-up line); " + ``why``
    (what prices ``tp``, and how to price the text's); None where it names none or that one.
    Found by a cold read: a log on 2 GPUs priced on 4 and answered --tensor-parallel-size 4,
    unsaid. views/metrics.js says it in the page's words."""
    named = (reading.startup or {}).get("tensor_parallel_size")
    if named is None or named == tp:
        return None
    return f"tp {tp}: the text names tensor_parallel_size={named} ({reading.startup['said_in']}); {why}"




def models_said(reading: Reading) -> str | None:
    """The models a text names, quoted, with where ("'meta-llama/Llama-3.3-70B-Instruct' (its
    model_name label)"; names over MODEL_NAME_CHARS characters cut with "…"; named.served_models);
    None where it names none. views/metrics.js modelsSaid."""
    names, where = served_models(reading)
    return f"{', '.join(map(_quoted, names))} ({where})" if names else None


def drafter_said(reading: Reading) -> str | None:
    """The drafter a text's vLLM start-up line names, as "method 'eagle3', model
    'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'"; None where it names none. views/metrics.js drafterSaid."""
    if not reading.startup or not reading.startup["method"]:
        return None
    method, model = reading.startup["method"], reading.startup["draft_model"]
    if not reading.startup["method_given"]:
        return f"model {_quoted(model)}, which vLLM runs as method {_quoted(method)} (none given)"
    return f"method {_quoted(method)}" + (f", model {_quoted(model)}" if model else "")


def named_models_text(reading: Reading, target: str, names: dict) -> str | None:
    """The models a text names (models_said) where none is ``target`` (a catalog key; ``names``:
    named.deployment_names), the target the answer prices; None where it names none, or names
    it. Found by cold reads: a scrape, then a log, of another model priced as Qwen3-8B, unsaid.
    views/metrics.js namedModels says it in the page's words."""
    models, _ = served_models(reading)
    if not models or named_target(reading, names) == target:
        return None
    return models_said(reading)


def named_drafter_text(reading: Reading, drafter: str, target: str, names: dict) -> str | None:
    """The drafter a text's vLLM start-up line names (drafter_said) where it is not ``drafter`` (a
    catalog key) with the checkpoint it drafts ``target`` with (``names``:
    named.deployment_names); None where it names none, or names that one. views/metrics.js
    namedDrafter."""
    if named_checkpoint(reading, drafter, target, names):
        return None
    return drafter_said(reading)


def checkpoint_text(catalog: Catalog, drafter: str, target: str, names: dict) -> str:
    """The checkpoint the catalog drafts ``target`` with as ``drafter`` (keys), as "the catalog's
    EAGLE-3 head for Qwen3-14B, 'AngelSlim/Qwen3-14B_eagle3'": where a text names the drafter's
    kind with another checkpoint (views/metrics.js, the same words)."""
    return (f"the catalog's {catalog.drafters[drafter].label} for {catalog.targets[target].label}, "
            f"{_quoted(names['checkpoint'][drafter][target])}")


def held_shape_note(fit: AcceptanceFit, shape: str) -> str:
    """Why --site-grid prices ``shape``, not the fit's best: the site's data for the configuration
    hold only other shapes (advice.held_shape); the page's words (views/metrics.js), its shape
    labels aside."""
    d = residual_decimals(fit)
    return (f"this configuration's data hold acceptance {shape} only: the answer uses that shape's best fit to your rates, "
            f"α = {fit.alphas[shape]:.2f} (residual {fit.residuals[shape]:.{d}f}, against {fit.residual:.{d}f} for {fit.shape}). "
            "specmodel fit-metrics without --site-grid prices your shape on any configuration")


def times(x: float, decimals: int = 2) -> str:
    """A speedup as the page writes it: ``decimals`` decimals and "×", more where it would read
    as 1 but is not (specmodel.display; found once: "1.00×" here for the page's "0.999×")."""
    return f"{x:.{decimals_beside_one(x, decimals)}f}×"


def _count(x: float | None) -> str:
    """A count, whole, with separators (parse.grouped's digits: a huge one as the text wrote it)."""
    return "–" if x is None else grouped(float(round(x)))


# Per-position rates listed before "… N more": the simulation's largest γ (a text can list
# hundreds, and a list that long buries the rest of the reading).
LISTED_POSITIONS = max(FIELDS["gamma"].grid)


def listed_rates(rates, listed: int = LISTED_POSITIONS) -> str:
    """The first ``listed`` per-position rates to 3 decimals, then "… N more" for the rest; the
    page lists them the same way (views/metrics.js listedRates)."""
    shown = ", ".join(f"{p:.3f}" for p in rates[:listed])
    return shown + (f", … {len(rates) - listed} more" if len(rates) > listed else "")


def _derived(reading: Reading, key: str) -> str:
    """" (derived: how)" after a value the text does not print, as the page labels it."""
    how = reading.derived.get(key)
    return f" (derived: {how})" if how else ""


def mean_parts(reading: Reading) -> list[str]:
    """The mean acceptance length as the text prints it, then (labelled derived) the one read from
    it where that is another number: a cold read found "3.610" shown as the text's for a line
    printing 2.61."""
    parts = []
    printed = reading.printed_mean_acceptance_length
    if printed is not None:
        parts.append(f"mean acceptance length as printed {printed}")
    if reading.mean_acceptance_length is not None and (printed is None or reading.derived.get("mean_acceptance_length")):
        parts.append(f"mean acceptance length{_derived(reading, 'mean_acceptance_length')} "
                     f"{reading.mean_acceptance_length:.3f}")
    return parts


def reading_lines(reading: Reading, leave_out=()) -> list[str]:
    """What was read, one line (then the counts and the notes, indented), as the page's "What the
    text says"; the notes in ``leave_out`` (said elsewhere, as a fit error's reason) left out."""
    parts = [f"read: {reading.source}, {reading.records:,} record{'s' if reading.records != 1 else ''}"]
    if reading.gamma:
        parts.append(f"γ = {reading.gamma}")
    parts += mean_parts(reading)
    if reading.per_position_acceptance:
        parts.append("per-position " + listed_rates(reading.per_position_acceptance))
    if reading.running_requests is not None:
        parts.append(f"running requests {grouped(reading.running_requests)}")
    lines = ["; ".join(parts)]
    if reading.num_drafts is not None:
        lines.append(f"  drafts{_derived(reading, 'num_drafts')} {_count(reading.num_drafts)}, draft tokens "
                     f"{_count(reading.num_draft_tokens)}, tokens in accepted prefixes"
                     f"{_derived(reading, 'num_accepted_tokens')} {_count(reading.num_accepted_tokens)}")
    return lines + [f"  note: {note_text(n)}" for n in reading.notes if n not in leave_out]


def fit_line(fit: AcceptanceFit, reading: Reading) -> str:
    d = residual_decimals(fit)
    others = ", ".join(f"{s} {r:.{d}f}" for s, r in fit.residuals.items() if s != fit.shape)
    unit = "RMS over positions" if fit.basis == PER_POSITION else "in mean acceptance length"
    tail = f" (other shapes: {others})" if others else " (one length cannot tell the shapes apart; assumed falling)"
    if fit.basis == PER_POSITION and fit.gamma == 1:
        # every shape starts at α: the tie is no choice (found by a cold read: "best fit falling")
        tail = " (with one position the three shapes are one: only α is fitted)"
    if fit.v0_rates:
        # V0's rate picked the shape, as the page says it (views/metrics.js showFit)
        averages = ", ".join(f"{s} averages {r:.3f}" for s, r in fit.v0_rates.items())
        tail = (f" (one length cannot tell the shapes apart; V0's draft acceptance rate, an average over the positions, "
                f"can: at the α that gives the length, {averages}, against the text's "
                f"{reading.v0_draft_acceptance_rate:.3f}; the nearest wins; other shapes' residuals: {others})")
    return (f"fit: acceptance {fit.shape}, α = {alpha_text(fit.alpha)}, γ = {fit.gamma}, residual {fit.residual:.{d}f} {unit}"
            f"{tail}; mean acceptance length {fit.fitted_mean_acceptance_length:.3f}{fit_note(fit)}")


def fit_note(fit: AcceptanceFit) -> str:
    """What limits the fit, as the page's fit paragraph says it (metrics/fit.js fitLimit): "" or a line
    "\\n  note: …"."""
    if fit.v0_rates and fit.poor and fit.v0_rate_gap > POOR_FIT[V0_RATE]:
        nearest = min(fit.v0_rates.values(), key=lambda r: abs(r - fit.measured_v0_rate))
        return (f"\n  note: no acceptance shape gives both this mean acceptance length and V0's draft acceptance rate "
                f"({fit.measured_v0_rate:.3f} against {nearest:.3f} at best): the advice is only as good as this fit")
    if fit.grid_edge:
        # the grid's end, not the shape, is what the fit misses by (so no "no shape describes" note)
        return f"\n  note: {grid_edge_note(fit, 'advice')}"
    if fit.grid_limited:
        # (that one number cannot tell the shapes apart, the fit line has said already)
        return f"\n  note: α = {alpha_text(fit.alpha)} is the closest α on the grid: its step limits the match"
    if fit.poor and fit.out_of_range:
        return (f"\n  note: no α gives acceptance {fit.shape} this mean acceptance length at γ = {fit.gamma}: "
                "the advice is only as good as this fit")
    if fit.poor:
        return "\n  note: no acceptance shape describes these numbers well: the advice is only as good as this fit"
    return ""


def grid_edge_note(fit: AcceptanceFit, answer: str) -> str:
    """The note of a fit the α grid's end stopped (fit.grid_edge), as the page's fit.js fitLimit
    writes it; ``answer``: what the reader calls the priced result ("advice" here, "answer" on the page).
    Speedups rise with α at every γ ≥ 1, so the priced ones bound the text's from that side."""
    low = fit.grid_edge == BELOW_GRID
    return (f"the measured acceptance lies {fit.grid_edge} the α grid, which {'starts' if low else 'ends'} at "
            f"{alpha_text(fit.alpha)}: the {answer} prices α = {alpha_text(fit.alpha)}, so its speedups are "
            f"{'upper' if low else 'lower'} bounds")


def thin_gains(advice: Advice, step_time_error: float | None) -> list[int]:
    """The batch sizes of ``advice.schedule`` that fit, at which speculation pays by less than
    ``step_time_error`` (the cost model's median error on measured step times, a fraction;
    calibration.validate.step_time_errors): gains the model cannot tell from none. The page's
    paste box lists the same (views/metrics.js thinGains)."""
    if step_time_error is None:
        return []
    return [row["batch"] for row in advice.schedule
            if row["fits_in_memory"] and row["recommended_gamma"] and row["best_speedup"] - 1 < step_time_error]


def batch_ranges_text(ranges: list[list[int]]) -> str:
    """Runs of batch sizes as the answer writes them: "1–2 and 16–64", "1, 8–16 and 128"
    (views/metrics.js rangesText)."""
    parts = [f"{a:,}" if a == b else f"{a:,}–{b:,}" for a, b in ranges]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def thin_gains_text(batches: list[int], step_time_error: float) -> str:
    """What the answer says of ``thin_gains``, the page's words but for "batch N" (views/metrics.js)."""
    listed = ", ".join(f"{b:,}" for b in batches[:-1]) + (" and " if len(batches) > 1 else "") + f"{batches[-1]:,}"
    return (f"at batch {listed} speculation gains less than {step_time_error:.1%}, this cost model's median error on "
            "the step times measured in vLLM: measure before relying on it there")


def advice_text(advice: Advice, catalog: Catalog, step_time_error: float | None = None,
                data_parallel: bool = False) -> str:
    """The model's answer at the advice's state: speedups, where speculation pays and stops, where
    it pays by less than the cost model's ``step_time_error`` (thin_gains), the γ by batch size (no
    γ where the load does not fit) and the flags: no γ-by-load flag for ``data_parallel`` engines."""
    s = advice.state
    gpus = catalog.gpu_group(s.gpu, s.tp).label
    lines = [f"predictions of the {s.cost_model} cost model, not measurements: {catalog.targets[s.target].label} on "
             f"{gpus}, drafter {s.drafter}, batch {s.batch}, context {s.context}, {s.workload}",
             f"  speedup at γ = {s.gamma}: {times(advice.speedup)}",
             f"  best γ at batch {s.batch}: {advice.best_gamma} ({times(advice.best_speedup)})"
             # advise()'s test for a γ that pays, which the page's paying_positions shares
             + best_gamma_tail(advice.recommended_gamma is not None, advice.best_speedup > 1)]
    ranges = advice.paying_batch_ranges
    if advice.largest_fitting_batch is None:
        lines.append("  no batch size fits in the GPUs' memory")
    elif advice.stops_paying_at_batch is None:
        lines.append(f"  speculation pays at every batch size that fits in memory, up to {advice.largest_fitting_batch:,} "
                     "(at its best γ)")
    elif not ranges:
        lines.append("  speculation does not pay at any batch size: leave it off")
    elif len(ranges) > 1 or ranges[0][0] != advice.schedule[0]["batch"]:
        # (found by a cold read: "stops paying at batch 4" for a mixture of experts' target that
        # pays again from 16 to 64, the reader's own 32 included)
        lines.append(f"  speculation pays only at batch {batch_ranges_text(ranges)} (at its best γ); at the other "
                     "batch sizes that fit, no γ beats plain decoding")
    elif advice.stops_paying_at_batch != s.batch:
        lines.append(f"  speculation stops paying at batch {advice.stops_paying_at_batch:,} (no γ beats plain decoding there)")
    else:  # at the load itself the lines around say it does not pay, but not where it does (a cold read)
        lines.append(f"  speculation pays only at batch {batch_ranges_text(ranges)} (at its best γ)")
    thin = thin_gains(advice, step_time_error)
    if thin:
        lines.append(f"  {thin_gains_text(thin, step_time_error)}")
    if advice.best_gamma == max(FIELDS["gamma"].grid):
        lines.append(f"  (γ = {advice.best_gamma} is the largest searched: the best may lie further)")
    # (only for a γ the answer recommends: found by a cold read, "measure before trusting γ = 2"
    # beside "use γ 0", γ = 2 being slower than plain decoding)
    if advice.best_gamma > s.gamma and advice.recommended_gamma:
        lines.append(f"  (positions past the {s.gamma} the text measured are the fitted shape carried on: "
                     f"measure before trusting γ = {advice.best_gamma})")
    note = extrapolation_note(s, catalog)
    if note:
        lines.append(f"  ({note})")
    lines.append("γ by batch size (use γ = 0: do not speculate at that load; –: the load does not fit in memory, no γ):")
    lines.append(f"  {'batch':>6}  {'best γ':>6}  {'speedup':>8}  {'at γ=' + str(s.gamma):>8}  {'use γ':>5}  fits")
    for row in advice.schedule:
        # no γ for a load that does not fit, as on the page
        use = "–" if row["recommended_gamma"] is None else row["recommended_gamma"]
        lines.append(f"  {row['batch']:>6}  {row['best_gamma']:>6}  {times(row['best_speedup']):>8}  "
                     f"{times(row['speedup_at_fitted_gamma']):>8}  {use:>5}  "
                     f"{'yes' if row['fits_in_memory'] else 'no'}")
    if advice.speculative_config:
        lines.append(f"{tensor_parallel_flag(s)}--speculative-config '{json.dumps(advice.speculative_config)}'")
    elif advice.recommended_gamma is None:
        lines.append(f"no --speculative-config: at batch {s.batch} the weights and KV caches do not fit in the GPUs' "
                     "memory")
    else:
        lines.append(f"no --speculative-config: at batch {s.batch} no γ beats plain decoding")
    if advice.dynamic_speculative_config and data_parallel:
        lines.append(DYNAMIC_SD_OFF)
    elif advice.dynamic_speculative_config:
        lines.append(f"γ by load, with vLLM's dynamic speculative decoding ({DYNAMIC_SD_DOCS}): {DYNAMIC_SD_SCHEDULE}; "
                     f"{DYNAMIC_SD_LIMITS}:")
        lines.append(f"{tensor_parallel_flag(s)}--speculative-config '{json.dumps(advice.dynamic_speculative_config)}'")
    return "\n".join(lines)


def report(reading: Reading, fit: AcceptanceFit, advice: Advice, catalog: Catalog, notes=(),
           step_time_error: float | None = None) -> str:
    return "\n".join(reading_lines(reading) + [fit_line(fit, reading)] + [f"note: {note_text(n)}" for n in notes]
                     + [advice_text(advice, catalog, step_time_error, reading.data_parallel)])
