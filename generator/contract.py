"""The data contract between the generator and the page, written once.

Which value lives in which file, in which table, over which dimensions, how it is rounded and
how it may be shown. ``site_data.py`` lays the files out from it; the build writes it into
``data/manifest.json`` (``manifest_contract``), where the page's data.js reads it; the
generator's own lookups (``SiteModel.value``) use the same tables. Nothing else lists a field.

Files, under a folder per configuration (GPU, target, tensor-parallel degree): a ``core`` file
per cost model (what does not depend on the acceptance settings), a ``shard`` per cost model ×
acceptance shape × workload × α, and a ``breakdown`` per drafter × γ (one step's time by part
under every cost model, side by side). A configuration's data hold only its own values of the
drafter (those that serve its target), cost model, acceptance and workload axes (the manifest's
``configurations``); its tables are indexed by those. A file is a mapping
{table name: {field: flat list}}; a flat list is row-major over the table's dims, each dim
indexed by its position in the manifest's axis.

Rounding: ``sig`` fields keep 4 significant digits, more where 4 would change how one of the
field's formats writes the value (so the page, the prose and the CLI write the same text: one
rounding, from the unrounded value); ``exact`` fields are integers (bytes, counts); ``text``
fields are written by Python as the page shows them (vLLM's log fields); ``bool`` fields are
0/1; ``key`` fields are names. A ``sig`` value that does not exist (a measurement not taken
there) is stored as null.
"""
from __future__ import annotations

import math
from decimal import Decimal
from dataclasses import dataclass

import numpy as np

from .formats import FORMATS, format_value, small_decimals

SIG = "sig"
EXACT = "exact"
TEXT = "text"
BOOL = "bool"
KEY = "key"
SIG_LIST = "sig_list"  # a list of sig values (per-position acceptance)
SIGNIFICANT_DIGITS = 4


@dataclass(frozen=True)
class Table:
    """A table: the file kind it lives in and its dims (names of manifest axes)."""

    file: str
    dims: tuple[str, ...]


@dataclass(frozen=True)
class FieldSpec:
    """A field: its table, rounding, the formats it may be shown in, and what it is."""

    table: str
    rounding: str
    formats: tuple[str, ...] = ()
    about: str = ""


# File kinds: the keys that select a file, and its path under data/ ({key} is the value,
# {key_index} the position on a numeric axis).
_CONFIG = ("gpu", "target", "tp")
_CONFIG_PATH = "{gpu}/{target}/tp{tp}/"
FILES = {
    "core": {"by": (*_CONFIG, "cost_model"), "pattern": _CONFIG_PATH + "{cost_model}/core.json"},
    "shard": {"by": (*_CONFIG, "cost_model", "acceptance", "workload", "alpha"),
              "pattern": _CONFIG_PATH + "{cost_model}/shards/{acceptance}-{workload}-a{alpha_index}.json"},
    "breakdown": {"by": (*_CONFIG, "drafter", "gamma"), "pattern": _CONFIG_PATH + "breakdown/{drafter}-g{gamma}.json"},
}

BCG = ("batch", "context", "gamma")
BCDG = ("batch", "context", "drafter", "gamma")

TABLES: dict[str, Table] = {
    # core: one verify pass, the draft phase, plain decoding, memory, sizes, closed forms
    "verify": Table("core", BCG),
    "draft": Table("core", BCDG),
    "plain": Table("core", ("batch", "context", "workload")),
    "plain_pass": Table("core", ("batch", "context")),
    "memory": Table("core", ("batch", "context", "drafter")),
    "drafters": Table("core", ("drafter",)),
    "drafter_gamma": Table("core", ("drafter", "gamma")),
    "target": Table("core", ()),
    "closed_form": Table("core", ("alpha", "gamma_cf")),
    "closed_form_ceiling": Table("core", ("alpha",)),
    "roof": Table("core", ("roof_point",)),
    "other": Table("core", ()),
    "configuration": Table("core", ()),
    "plain_measured": Table("core", ("measured_study", "context", "batch")),
    # the decision map: each drafter at its typical acceptance for a task
    "decision": Table("core", ("task", "workload", "batch", "context")),
    # breakdown: one step by part, every cost model
    "breakdown": Table("breakdown", ("breakdown_model", "batch", "context", "step_kind", "part")),
    "breakdown_total": Table("breakdown", ("breakdown_model", "batch", "context", "step_kind")),
    # shard: everything that depends on acceptance, workload and α
    "states": Table("shard", BCDG),
    "by_gamma": Table("shard", ("gamma",)),
    "positions": Table("shard", ("position",)),
    "log": Table("shard", ("batch", "gamma")),
    "best": Table("shard", ("batch", "context", "drafter")),
}

FIELDS: dict[str, FieldSpec] = {
    # verify pass at full batch, context P + G/2
    "verify_bytes": FieldSpec("verify", EXACT, ("gb2",), "bytes one verify pass reads"),
    "verify_flops": FieldSpec("verify", SIG, ("tflop",), "FLOPs of one verify pass"),
    "verify_memory_time_s": FieldSpec("verify", SIG, ("ms",), "its bytes at the achieved bandwidth (s)"),
    "verify_compute_time_s": FieldSpec("verify", SIG, ("ms",), "its FLOPs at the achieved rate (s)"),
    "verify_time_s": FieldSpec("verify", SIG, ("ms",), "what it takes (s)"),
    "tensor_core_idle_fraction": FieldSpec("verify", SIG, ("pct1",), "1 − compute time / pass time"),
    "verify_arithmetic_intensity": FieldSpec("verify", SIG, ("num1",), "FLOPs per byte"),
    "verify_attained_flops_per_s": FieldSpec("verify", SIG, ("tflops",), "FLOPs / pass time"),
    # the γ draft passes of that iteration
    # (in ms in the iteration figure's labels and table: kept to that format's digits; found by a
    # cold read: 14,420.00 ms from four significant digits where the model gives 14,421.80)
    "draft_memory_time_s": FieldSpec("draft", SIG, ("ms",), "memory time of the draft phase (s)"),
    "draft_compute_time_s": FieldSpec("draft", SIG, ("ms",), "arithmetic time of the draft phase (s)"),
    "draft_time_s": FieldSpec("draft", SIG, (), "time of the draft phase (s)"),
    # plain decoding
    "plain_tokens_per_s": FieldSpec("plain", SIG, ("tps",), "tokens/s without speculation"),
    "other_plain_tokens_per_s": FieldSpec("plain", SIG, ("tps",), "the same under the other cost model"),
    "plain_pass_memory_time_s": FieldSpec("plain_pass", SIG, ("ms",), "memory time of one plain pass (s)"),
    "plain_pass_compute_time_s": FieldSpec("plain_pass", SIG, ("ms",), "arithmetic time of one plain pass (s)"),
    # memory against the GPU's capacity
    "memory_required_bytes": FieldSpec("memory", EXACT, ("gb_needed",), "weights and KV caches of the batch"),
    "fits_in_memory": FieldSpec("memory", BOOL, ("fits",), "whether that fits the GPU"),
    # sizes
    "draft_weight_bytes": FieldSpec("drafters", EXACT, ("gb2",), "the drafter's weights"),
    "draft_kv_bytes_per_token": FieldSpec("drafters", EXACT, ("kb",), "the drafter's KV cache per token"),
    "speculative_config": FieldSpec("drafter_gamma", TEXT, (), "vLLM's --speculative-config flag"),
    "target_weight_bytes": FieldSpec("target", EXACT, ("gb2",), "the target's weights"),
    "target_kv_bytes_per_token": FieldSpec("target", EXACT, ("kb",), "the target's KV cache per token"),
    "gpu_memory_bytes": FieldSpec("target", EXACT, ("gb",), "the GPU's memory"),
    "peak_flops_per_s": FieldSpec("target", SIG, (), "achieved FLOP/s (the roof)"),
    "peak_bytes_per_s": FieldSpec("target", SIG, (), "achieved bytes/s (the roof)"),
    # Leviathan et al.'s closed forms
    "expected_tokens": FieldSpec("closed_form", SIG, ("num",), "Eq. 1: expected tokens per iteration"),
    "ceiling": FieldSpec("closed_form_ceiling", SIG, ("num",), "1 / (1 − α)"),
    # the roofline's roof: three points (two decades around the ridge, and the ridge)
    "roof_intensity": FieldSpec("roof", SIG, ("num1",), "FLOP per byte"),
    "roof_flops_per_s": FieldSpec("roof", SIG, (), "the most FLOP/s reachable there"),
    # per state
    "speedup": FieldSpec("states", SIG, ("times", "verdict"), "T_plain / T_spec"),
    "other_speedup": FieldSpec("states", SIG, ("times",), "the speedup under the other cost model"),
    "spec_tokens_per_s": FieldSpec("states", SIG, ("tps",), "tokens/s with speculation"),
    "draft_time_share": FieldSpec("states", SIG, ("pct",), "draft time / T_spec"),
    "arithmetic_ratio": FieldSpec("states", SIG, ("times",), "FLOPs speculative / plain"),
    "log_accepted_throughput_text": FieldSpec("states", TEXT, (), "vLLM's 'Accepted throughput' (%.2f)"),
    "log_drafted_throughput_text": FieldSpec("states", TEXT, (), "vLLM's 'Drafted throughput' (%.2f)"),
    # per γ (acceptance only)
    "mean_acceptance_length": FieldSpec("by_gamma", SIG, ("num",), "E[L]"),
    "per_position_acceptance": FieldSpec("by_gamma", SIG_LIST, ("positions",), "p_1 … p_γ"),
    "per_position_text": FieldSpec("by_gamma", TEXT, (), "vLLM's per-position list (%.3f)"),
    "token_row": FieldSpec("by_gamma", TEXT, (), "sample passes, one string of token kinds each"),
    "token_row_tokens": FieldSpec("by_gamma", EXACT, ("int",), "tokens those sample passes emit in all"),
    "token_row_expected_tokens": FieldSpec("by_gamma", SIG, ("num1",), "tokens as many passes emit on average: E[L] × passes"),
    "position_acceptance": FieldSpec("positions", SIG, ("num3",), "p_j at every position j (γ at its maximum)"),
    # the engine-log window
    "log_accepted_tokens": FieldSpec("log", EXACT, (), "vLLM's 'Accepted' count"),
    "log_drafted_tokens": FieldSpec("log", EXACT, (), "vLLM's 'Drafted' count"),
    "log_mean_acceptance_length_text": FieldSpec("log", TEXT, (), "vLLM's 'Mean acceptance length' (%.2f)"),
    "log_draft_acceptance_rate_text": FieldSpec("log", TEXT, (), "vLLM's 'Avg Draft acceptance rate' (%.1f)"),
    # the best γ, and the positions that pay
    "best_gamma": FieldSpec("best", EXACT, (), "the γ with the highest speedup"),
    "paying_positions": FieldSpec("best", EXACT, (), "best γ if it beats plain decoding, else 0"),
    # the other cost model, and plain decoding as measured
    "other_cost_model": FieldSpec("other", KEY, (), "the cost model the ladder marks beside this one ('' if none)"),
    "extrapolation_note": FieldSpec("configuration", TEXT, (), "how the calibrated model is extrapolated here"),
    "measured_plain_tokens_per_s": FieldSpec("plain_measured", SIG, ("tps",),
                                             "plain decoding as measured (null: not measured there)"),
    "measured_context_tokens": FieldSpec("plain_measured", SIG, ("int",),
                                         "the context it was measured at (null: not measured there)"),
    # the decision map
    "decision_drafter": FieldSpec("decision", KEY, (), "the fastest drafter at its typical acceptance"),
    "decision_gamma": FieldSpec("decision", EXACT, (), "its best γ"),
    "decision_alpha": FieldSpec("decision", SIG, ("num",), "its typical α for the task (on the grid)"),
    "decision_acceptance": FieldSpec("decision", KEY, (), "its typical acceptance shape for the task"),
    "decision_speedup": FieldSpec("decision", SIG, ("times",), "its speedup"),
    "decision_fits": FieldSpec("decision", BOOL, (), "whether it fits the GPU"),
    # one step by part
    "part_time_s": FieldSpec("breakdown", SIG, ("ms",), "the part's time in one step (s)"),
    "step_time_s": FieldSpec("breakdown_total", SIG, ("ms",), "the step's time (s)"),
}

# The derivation's figures (the iteration and the roofline) show the ideal whole-pass model
# whatever cost model the reader picked: the same fields, under that model, in every core file.
IDEAL_MODEL = "whole-pass"
IDEAL_FIELDS = ("draft_memory_time_s", "draft_compute_time_s", "verify_memory_time_s", "verify_compute_time_s",
                "plain_pass_memory_time_s", "plain_pass_compute_time_s", "verify_arithmetic_intensity",
                "verify_attained_flops_per_s", "roof_intensity", "roof_flops_per_s")
FIELDS.update({f"ideal_{k}": FieldSpec(FIELDS[k].table, FIELDS[k].rounding, FIELDS[k].formats,
                                       f"{FIELDS[k].about}, in the ideal whole-pass model") for k in IDEAL_FIELDS})
# Only the ideal model's values of these are shown (the derivation's figures): the data do not
# carry the picked model's.
for _k in ("draft_memory_time_s", "draft_compute_time_s", "draft_time_s", "verify_arithmetic_intensity",
           "verify_attained_flops_per_s", "roof_intensity", "roof_flops_per_s"):
    del FIELDS[_k]

# The readouts the simulation shows (specmodel's READOUT_KEYS, and the verify pass's time) and the
# format each is written in unless an element names another (data-fmt).
READOUTS: dict[str, str] = {
    "speedup": "times",
    "spec_tokens_per_s": "tps",
    "plain_tokens_per_s": "tps",
    "mean_acceptance_length": "num",
    "per_position_acceptance": "positions",
    "draft_time_share": "pct",
    "arithmetic_ratio": "times",
    "verify_bytes": "gb2",
    "verify_flops": "tflop",
    "verify_memory_time_s": "ms",
    "verify_compute_time_s": "ms",
    "verify_time_s": "ms",
    "tensor_core_idle_fraction": "pct1",
    "target_weight_bytes": "gb2",
    "draft_weight_bytes": "gb2",
    "target_kv_bytes_per_token": "kb",
    "draft_kv_bytes_per_token": "kb",
    "memory_required_bytes": "gb_needed",
    "fits_in_memory": "fits",
}

# Token kinds of the sample row: one letter each in ``token_row``; symbol and words for the page.
TOKEN_KINDS = {
    "a": {"kind": "accepted", "symbol": "✓", "legend": "accepted guess"},
    "r": {"kind": "rejected", "symbol": "✗", "legend": "first rejected guess"},
    "d": {"kind": "discarded", "symbol": "–", "legend": "discarded (after a rejection)"},
    "c": {"kind": "corrected", "symbol": "↻", "legend": "corrected token from the target"},
    "b": {"kind": "bonus", "symbol": "+", "legend": "bonus token (all accepted)"},
}


def token_kinds(gamma: int, accepted: int) -> str:
    """The kinds of one pass's tokens: k accepted, then a rejection, the discarded rest and a
    corrected token, or (all γ accepted) a bonus token."""
    if accepted == gamma:
        return "a" * accepted + "b"
    return "a" * accepted + "r" + "d" * (gamma - accepted - 1) + "c"


# What a screen reader hears for one pass: {pass}, {accepted}, {gamma}, {discarded} are filled in
# from the pass's kinds (the page's tokens.js fills the same templates).
TOKEN_SENTENCES = {
    "bonus": "Pass {pass}: {accepted} of {gamma} {guesses} accepted, then a bonus token.",
    "rejected": "Pass {pass}: {accepted} of {gamma} {guesses} accepted, then a rejected guess and a corrected token.",
    "discarded": "Pass {pass}: {accepted} of {gamma} {guesses} accepted, then a rejected guess, {discarded} discarded "
                 "and a corrected token.",
}
# {guesses}: the noun after γ ("1 of 1 guess", "2 of 4 guesses"); views/tokens.js says it alike.
GUESS_NOUNS = {"one": "guess", "other": "guesses"}


def token_sentence(number: int, kinds: str) -> str:
    """What a screen reader says for pass ``number`` whose tokens are ``kinds``."""
    gamma = len(kinds) - 1
    counts = {"pass": number, "accepted": kinds.count("a"), "gamma": gamma, "discarded": kinds.count("d"),
              "guesses": GUESS_NOUNS["one" if gamma == 1 else "other"]}
    which = "bonus" if kinds.endswith("b") else "discarded" if counts["discarded"] else "rejected"
    return TOKEN_SENTENCES[which].format(**counts)


def sig(x: float, digits: int = SIGNIFICANT_DIGITS) -> float | int:
    """``x`` to ``digits`` significant digits; integral results become ints (shorter JSON)."""
    v = float(f"{float(x):.{digits}g}")
    return int(v) if v.is_integer() and abs(v) < 2**53 else v


def stored(name: str, x) -> object:
    """Field ``name``'s value ``x`` (unrounded) as the data files store it.

    A ``sig`` value gets more digits only where 4 would change how a format of the field writes
    it (a value just past a rounding tie): then the page writes what Python writes from ``x``.
    """
    rounding = FIELDS[name].rounding
    if rounding == SIG:
        return None if math.isnan(float(x)) else _sig_for(name, float(x))
    if rounding == SIG_LIST:
        return [_sig_for(name, float(v), element=True) for v in x]
    if rounding == EXACT:
        return int(round(float(x)))
    if rounding == BOOL:
        return int(bool(x))
    return x  # TEXT, KEY


def _near_half(t: np.ndarray) -> np.ndarray:
    """Where ``t``'s fraction is within float error of a half: what NumPy cannot round for sure
    (the error grows with |t|, so large values always count as near)."""
    return np.abs(np.abs(t - np.floor(t)) - 0.5) <= 1e-6 + np.abs(t) * 1e-14


def stored_many(name: str, values) -> list:
    """``stored(name, x)`` for every x of ``values`` (any shape, flattened), as a list: the same
    values. ``_sig_for`` is computed with NumPy, one digit count at a time, for every value it
    can settle for sure; a value it cannot (within float error of a rounding tie, of its digits
    or of a format's, or past what doubles hold exactly) goes to ``stored`` itself."""
    rounding = FIELDS[name].rounding
    flat = np.ravel(np.asarray(values, dtype=object) if isinstance(values, str) else values)
    if rounding == EXACT:
        return [int(v) for v in np.rint(np.asarray(flat, dtype=float)).astype(np.int64)]
    if rounding == BOOL:
        return [int(bool(v)) for v in flat]
    if rounding in (TEXT, KEY):
        return list(flat)
    if rounding != SIG:
        return [stored(name, v) for v in flat]
    x = np.asarray(flat, dtype=float)
    out = np.array(x)
    settled = np.zeros(x.shape, dtype=bool)
    specs = [FORMATS[fmt] for fmt in FIELDS[name].formats]
    vectorised = all("decimals" in spec and "join" not in spec for spec in specs)

    def ticks(a, spec):
        # the same operations, in the same order, as _on_tie: a format's last digit as units
        x = a * spec.get("scale", 1) / spec.get("divide", 1)
        t = x * 10.0 ** spec["decimals"]
        small = spec.get("below_one")
        if small:
            # in the smaller unit, the last of its significant figures (formats.small_decimals)
            # (rounded in the format's own unit, then moved: formats.small_decimals)
            y = x * small["scale"]
            with np.errstate(all="ignore"):
                decimals = np.maximum(0, small["significant"] - 1 - np.floor(np.log10(np.abs(y))))
            shift = round(math.log10(small["scale"]))
            t = np.where(np.abs(y) < small["below"], x * 10.0 ** (decimals + shift), t)
        return t

    with np.errstate(all="ignore"):  # huge or infinite values are refused below, not warned of
        # undecided: not yet settled, and not sent to `stored` either
        undecided = np.isfinite(x) & (x != 0) if vectorised else np.zeros(x.shape, dtype=bool)
        tx = [ticks(x, spec) for spec in specs]
        for t in tx:
            undecided &= ~_near_half(t)  # how x itself is written is not for sure
        for spec, t in zip(specs, tx):
            if spec.get("beside_one"):
                # a value that reads as 1 at the format's decimals gets more of them
                # (formats.beside_one_decimals): `stored` compares the texts themselves
                undecided &= np.floor(t + 0.5) != 10.0 ** spec["decimals"]
        exponent = np.floor(np.log10(np.abs(np.where(undecided, x, 1.0))))
        if vectorised:  # nothing at all (a part a step does not have) is 0 in every format
            zero = x == 0
            out[zero] = 0.0
            settled[zero] = True
        for digits in range(SIGNIFICANT_DIGITS, 17):
            at = np.flatnonzero(undecided)
            if at.size == 0:
                break
            k = exponent[at] - (digits - 1)
            m = x[at] / 10.0**k
            d = np.rint(m)
            # d / 10^n and d·10^n are the doubles nearest the decimal (10^n exact for n <= 22):
            # what float(f"{x:.{digits}g}") gives
            v = np.where(k < 0, d / 10.0 ** (-k), d * 10.0**k)
            sure = (~_near_half(m) & (np.abs(d) >= 10 ** (digits - 1)) & (np.abs(d) <= 10**digits - 1)
                    & (np.abs(k) <= 22) & (np.abs(d) < 2**53))
            accepted = sure.copy()
            for spec, t in zip(specs, tx):
                tv = ticks(v, spec)
                on_tie = np.abs(np.abs(tv - np.floor(tv)) - 0.5) <= 1e-6  # _on_tie, to the letter
                # written alike: both clear of a tie, so rounding each to the nearest is for sure
                sure &= on_tie | ~_near_half(tv)
                accepted &= ~on_tie & (np.floor(t[at] + 0.5) == np.floor(tv + 0.5))
            done = sure & accepted  # _sig_for stops at these digits with this value
            out[at[done]] = v[done]
            settled[at[done]] = True
            undecided[at[~sure]] = False  # not for sure at these digits: `stored` decides
            undecided[at[done]] = False  # the rest were surely refused: more digits
    # as `sig` writes them: integral values as ints (shorter JSON), the rest as floats
    result = out.astype(object)
    integral = settled & (out == np.floor(out)) & (np.abs(out) < 2**53)
    result[integral] = out[integral].astype(np.int64).tolist()
    missing = np.isnan(x)
    result[missing] = None
    for i in np.flatnonzero(~settled & ~missing).tolist():
        result[i] = stored(name, flat[i])
    return result.tolist()


def _sig_for(name: str, x: float, element: bool = False) -> float | int:
    formats = FIELDS[name].formats
    for digits in range(SIGNIFICANT_DIGITS, 17):
        v = sig(x, digits)
        if all(_shown(f, v, element) == _shown(f, x, element) and not _on_tie(f, v) for f in formats):
            return v
    return x


def _on_tie(fmt: str, v: float) -> bool:
    """Whether ``v`` sits on a rounding tie of format ``fmt`` (160.5 in a format of no decimals).
    A stored tie is written differently by the page's formats (half to even: 160) and by the
    charts' d3-format (half up: 161); only a value off every tie reads the same in both."""
    spec = FORMATS[fmt]
    if "decimals" not in spec:
        return False
    x = float(v) * spec.get("scale", 1) / spec.get("divide", 1)
    small = small_decimals(spec, x)
    # Decimal's exact scaling: a subnormal value's decimals would overflow 10.0 ** decimals. A
    # value in the smaller unit is rounded in the format's own (formats.small_decimals): its
    # decimals there are the smaller unit's and the units' shift
    shift = round(math.log10(spec["below_one"]["scale"])) if small else 0
    t = float(Decimal(x).scaleb((small[1] + shift) if small else spec["decimals"]))
    return abs(abs(t - math.floor(t)) - 0.5) <= 1e-6


def _shown(fmt: str, x: float, element: bool) -> str:
    return format_value(fmt, [x] if element else x)


def manifest_contract() -> dict:
    """The contract as the manifest carries it, for the page's data.js and formats."""
    return {
        "files": {k: {"by": list(v["by"]), "pattern": v["pattern"]} for k, v in FILES.items()},
        "tables": {k: {"file": t.file, "dims": list(t.dims)} for k, t in TABLES.items()},
        "fields": {k: {"table": f.table, "rounding": f.rounding} for k, f in FIELDS.items()},
        "readouts": READOUTS,
        "token_kinds": TOKEN_KINDS,
        "token_sentences": TOKEN_SENTENCES,
        "guess_nouns": GUESS_NOUNS,
    }
