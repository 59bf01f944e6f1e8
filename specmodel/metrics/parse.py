"""Read speculative-decoding metrics from the text an engine prints or exports.

Formats (field names and number formats from the engines' source; research notes in the issue):

- vLLM V1 log line, ``vllm/v1/spec_decode/metrics.py`` ``SpecDecodingLogging.log()``:
  ``SpecDecoding metrics: Mean acceptance length: 2.37, Accepted throughput: … tokens/s, Drafted
  throughput: … tokens/s, Accepted: 89 tokens, Drafted: 975 tokens, Per-position acceptance rate:
  0.600, 0.385, …, Avg Draft acceptance rate: 9.1%`` (0.10.2 on). 0.8.5–0.10.1 print ``Draft
  acceptance rate: NN.N%`` first and no throughputs; 0.8.5's mean acceptance length leaves out
  the bonus token. Each line covers the interval since the previous one.
- vLLM V0 log line, ``vllm/engine/metrics.py`` (0.5.3–0.9.2): ``Speculative metrics: Draft
  acceptance rate: 0.800, System efficiency: 0.672, Number of speculative tokens: 4, Number of
  accepted tokens: …, Number of draft tokens: …, Number of emitted tokens: ….`` Cumulative since
  the server started, so the last line is the whole run.
- Prometheus text format: ``vllm:`` or ``llamacpp:`` ``spec_decode_num_drafts``,
  ``…_num_draft_tokens``, ``…_num_accepted_tokens``, ``…_num_accepted_tokens_per_pos``
  (``position`` label), with or without ``_total`` and labels (summed over engines and models;
  ``_created`` series ignored), and ``vllm:num_requests_running``. Counters are totals since
  start; two scrapes in one text give the interval between them.
- vLLM's engine-stats line, V1 ``vllm/v1/metrics/loggers.py`` ``LoggingStatLogger.log()``:
  ``Engine 000: Avg prompt throughput: … tokens/s, Avg generation throughput: … tokens/s,
  Running: 16 reqs, Waiting: 0 reqs, …`` (V0: ``Avg prompt throughput: …, Running: 8 reqs,
  Swapped: …``). Its ``Running`` count is the load where the text gives no
  ``vllm:num_requests_running``: per engine the median of its lines, averaged over engines (each
  data-parallel engine runs its own batch; so is the gauge, by its ``engine`` label).
- llama-server's per-request line (``tools/server/server-context.cpp``): ``draft acceptance =
  0.54671 (  158 accepted /   289 generated), mean len =  2.37`` and ``acc per pos = (…)``.

Definitions (vLLM's): num_drafts = verify passes that drafted; accepted counts the accepted
prefix only; mean acceptance length = 1 + accepted / num_drafts (bonus token included);
per-position acceptance rate j = drafts whose prefix reached j / num_drafts (unconditional).
V1 lines print no num_drafts: it is read as drafted / γ, exact when every draft has all γ
positions; where one line's printed mean disagrees with that by more than its rounding, the
printed mean (vLLM's own count) is read and the disagreement noted.

Numbers these definitions rule out are refused (``ImpossibleMetricsError``), never fitted: more
accepted tokens than drafted, a rate outside 0 to 1, per-position rates or counts that rise, a
mean acceptance length outside 1 to γ + 1, a counter that is NaN, infinite or negative, V0 draft
tokens that are not a multiple of γ, text where the format prints a number, a list of positions
with an unreadable one inside it (a refusal names the first bad position). So are readings the
model cannot price: more draft positions than its γ allows, more running requests than its batch.
"""
from __future__ import annotations

import json
import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import partial

from ..errors import ModelInputError
from ..fields import FIELDS

# A paste longer than this is refused with a message (the page and the CLI read the same texts).
MAX_TEXT_CHARS = 20_000_000

# The most draft positions and running requests the model prices (its γ and batch fields): a
# reading beyond them is refused here, so that the page (parse.js, whose constants these are) and
# the CLI refuse the same texts in the same words (found once: 40 positions refused by the CLI,
# fitted on their first 10 by the page).
MAX_DRAFT_POSITIONS = FIELDS["gamma"].high
MAX_RUNNING_REQUESTS = FIELDS["batch"].high

# A vLLM V1 line of an n-gram drafter at γ = 3 (the per-position rates of a user's log; the
# counts made consistent with them): the page's one-click example.
EXAMPLE = ("SpecDecoding metrics: Mean acceptance length: 2.16, Accepted throughput: 116.40 tokens/s, Drafted "
           "throughput: 300.00 tokens/s, Accepted: 1164 tokens, Drafted: 3000 tokens, Per-position acceptance rate: "
           "0.543, 0.357, 0.264, Avg Draft acceptance rate: 38.8%")
EXPECTED = ("vLLM's 'SpecDecoding metrics:' or 'Speculative metrics:' log lines, a Prometheus scrape of "
            "vllm:spec_decode_* counters, or llama-server 'draft acceptance' lines, for example: " + EXAMPLE)

# A number where a log line prints one: signed, so that a negative one is refused as negative, not
# skipped as text; nan is what vLLM prints for an interval without drafts.
_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?inf|nan"
_LEADING_NUMBER = re.compile(r"\s*(" + _NUMBER + r")(?![0-9A-Za-z.])")


class MetricsInputError(ModelInputError):
    """Text with nothing the parser can read (the message says what was expected, with an example),
    or, with ``recognised``, a text read but unusable (too long, nothing to fit), whose problem says
    what to give instead (found by a cold read: the list of every readable kind, after a text of
    one of those kinds)."""

    def __init__(self, problem: str, recognised: bool = False):
        super().__init__("metrics", problem, "" if recognised else EXPECTED)


class ImpossibleMetricsError(MetricsInputError):
    """A number in the text that cannot be (more accepted tokens than drafted, a rate above 1, a NaN
    counter), text where the engine prints a number, or more draft positions or running requests than
    the model prices (fields "draft positions", "running requests"). The reading is refused, not fitted: a fit
    of impossible numbers still prints a speedup and a flag. ``field`` is the field as the text
    writes it; the message (``<field>: <problem>; allowed: <allowed>``, one line) is parse.js's."""

    def __init__(self, field: str, problem: str, allowed: str):
        ModelInputError.__init__(self, field, problem, allowed)


def _shown(x: float) -> str:
    """A number in a refusal, written as parse.js writes it."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return str(int(x)) if x.is_integer() and abs(x) < 1e21 else repr(x)


def _quoted(text: str) -> str:
    return "'" + (text[:30] + "…" if len(text) > 30 else text) + "'"


def _log_text(label: str, line: str) -> str | None:
    """The number after ``label`` (a regular expression ending in its colon) as the line writes
    it; None where the line lacks the label."""
    m = re.search(label + r"\s*([^,\s]*)", line)
    return m.group(1) if m else None


def _log_value(label: str, line: str, field: str, allowed: str) -> float | None:
    """The number after ``label`` (see _log_text); None where the line lacks the label. Anything
    else where the engine prints a number is refused, not skipped."""
    text = _log_text(label, line)
    if text is None:
        return None
    if not re.fullmatch(_NUMBER, text):
        problem = f"{_quoted(text)} is not a number" if text else "no number follows it"
        raise ImpossibleMetricsError(field, problem, allowed)
    return float(text)


_TOKENS = "a whole number of tokens, 0 or more"


def _check_count(field: str, x: float | None, allowed: str = _TOKENS) -> None:
    if x is not None and not (math.isfinite(x) and x >= 0 and x.is_integer()):
        raise ImpossibleMetricsError(field, f"{_shown(x)} is not a count", allowed)


_RATES = "a number from 0 to 1 at every position (the share of drafts that reached it)"


def _rate_list(text: str, field: str, trailing: bool, falling: bool) -> tuple[float, ...]:
    """Comma-separated rates, each a share (nan: vLLM's interval without drafts); with ``falling``,
    unconditional rates: a draft reaches position j + 1 only through position j. With ``trailing``,
    the list ends before the line's next field ("Name: value") or at its end; a position before
    that which is not a number is refused, not dropped. The positions are checked in order, so a
    refusal names the first bad one, whatever is wrong with it (found once: "1.750, 0.478, NaN"
    refused at position 3's NaN)."""
    items = text.split(",")
    read = [_LEADING_NUMBER.match(item) for item in items]
    last = len(items) - 1
    if trailing:
        # the list ends before the line's next field ("Avg Draft acceptance rate: …") or at the
        # line's end: whatever is between its last number and there is a position too (found by a
        # cold read: "0.543, 0.357, abc" was read as γ = 2, the "abc" dropped unsaid)
        last = next((i for i, item in enumerate(items) if i and ":" in item and not read[i]), len(items)) - 1
        while last >= 0 and not items[last].strip():
            last -= 1
    if not any(read[: last + 1]):
        raise ImpossibleMetricsError(field, f"{_quoted(items[0].strip())} is not a number", _RATES)
    rates: list[float] = []
    before = None  # (position, rate) of the last rate that is not nan
    for i in range(last + 1):
        if not read[i]:
            raise ImpossibleMetricsError(field, f"position {i + 1}, {_quoted(items[i].strip())}, is not a number",
                                         _RATES)
        p = float(read[i].group(1))
        if items[i].strip().endswith("%"):
            # the value as written: "54.3 … is not a rate" read as if the % had been missed (found by
            # a cold read); vLLM writes these rates as fractions
            raise ImpossibleMetricsError(field, f"{items[i].strip()} at position {i + 1} is a percentage", _RATES)
        if not math.isnan(p) and not 0 <= p <= 1:
            raise ImpossibleMetricsError(field, f"{_shown(p)} at position {i + 1} is not a rate", _RATES)
        if falling and before is not None and p > before[1]:
            raise ImpossibleMetricsError(field, f"{_shown(p)} at position {i + 1} is more than the "
                                         f"{_shown(before[1])} at position {before[0]}", "each position's rate at "
                                         "most the one before it (a draft reaches a position only through the ones "
                                         "before it)")
        if not math.isnan(p):
            before = (i + 1, p)
        rates.append(p)
    return tuple(rates)


@dataclass(frozen=True)
class Reading:
    """What a text says about one deployment's speculation.

    Counts are totals over the text's window (floats: Prometheus exports floats). ``gamma`` is
    num_speculative_tokens as far as it can be told (the number of per-position rates, V0's
    "Number of speculative tokens", or drafted tokens per draft). ``per_position_acceptance`` are
    vLLM's unconditional per-position rates, position 1 first. ``notes`` say what was assumed
    and what is missing, one sentence each. ``printed_mean_acceptance_length``: the mean one vLLM
    V1 line prints, as text, digit for digit (without the bonus token where the line leaves it out),
    so that what the text says is shown beside what was made of it (a cold read found "2.6" shown
    for a line printing "2.60"). ``derived``: how each count or mean the
    text does not print was worked out, by field name (found once: "drafts 617" and "mean acceptance
    length 3.610" shown as the text's, for a line printing neither). ``model_names``: the model whose
    samples a Prometheus text was read by (vLLM's ``model_name`` label: the first the text names; a
    note says which were left out), as a tuple of one; empty for the log formats, which name none.
    ``startup``: what the text's last vLLM start-up line (or `vllm serve` flags) names
    (``_startup``): {"model", "method", "method_given", "draft_model", "tensor_parallel_size",
    "num_speculative_tokens", "said_in"}, or None.
    ``running_requests_from_engine_lines``: whether the load is the engine-stats lines' "Running: N
    reqs" (a scrape without vllm:num_requests_running, pasted with them: found by a cold read, the
    command line said the load came from a gauge the scrape did not have).
    """

    source: str
    records: int
    gamma: int | None = None
    num_drafts: float | None = None
    num_draft_tokens: float | None = None
    num_accepted_tokens: float | None = None
    mean_acceptance_length: float | None = None
    per_position_acceptance: tuple[float, ...] | None = None
    running_requests: float | None = None
    v0_draft_acceptance_rate: float | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    printed_mean_acceptance_length: str | None = None
    derived: dict = field(default_factory=dict)
    model_names: tuple[str, ...] = ()
    startup: dict | None = None
    running_requests_from_engine_lines: bool = False

    @property
    def data_parallel(self) -> bool:
        """Whether the text comes from several data-parallel engines (its load's note says so)."""
        return any(DATA_PARALLEL in n for n in self.notes)

    @property
    def draft_acceptance_rate(self) -> float | None:
        """Accepted per drafted token (vLLM V1's "Avg Draft acceptance rate", as a fraction)."""
        if self.num_draft_tokens and self.num_accepted_tokens is not None:
            return self.num_accepted_tokens / self.num_draft_tokens
        return None

    def as_dict(self) -> dict:
        return {"source": self.source, "records": self.records, "gamma": self.gamma, "num_drafts": self.num_drafts,
                "num_draft_tokens": self.num_draft_tokens, "num_accepted_tokens": self.num_accepted_tokens,
                "mean_acceptance_length": self.mean_acceptance_length,
                "per_position_acceptance": list(self.per_position_acceptance) if self.per_position_acceptance else None,
                "running_requests": self.running_requests, "draft_acceptance_rate": self.draft_acceptance_rate,
                "v0_draft_acceptance_rate": self.v0_draft_acceptance_rate, "notes": list(self.notes),
                "printed_mean_acceptance_length": self.printed_mean_acceptance_length, "derived": dict(self.derived),
                "model_names": list(self.model_names), "startup": dict(self.startup) if self.startup else None,
                "running_requests_from_engine_lines": self.running_requests_from_engine_lines}


# --- vLLM V1 log lines ------------------------------------------------------------------------

# What a V1 line writes after "SpecDecoding metrics:", in order (vllm/v1/spec_decode/metrics.py;
# 0.8.3 and 0.8.4 wrote "Draft acceptance rate" where later versions write the throughputs).
_V1_LABELS = ("Mean acceptance length", "Accepted throughput", "Drafted throughput", "Accepted", "Drafted",
              "Per-position acceptance rate", "Avg Draft acceptance rate", "Draft acceptance rate")


def _cut_label(line: str) -> tuple[int, str] | None:
    """Where a line cut short after a comma, or inside its last field's name, lost the rest ("…,
    Per-position acceptan", a name with nothing after its colon, or nothing after the comma), and
    how its end reads (the name, or the field before the comma); None for a line that ends
    otherwise. Found by cold reads: such lines were told their vLLM prints no per-position rates."""
    at = line.rstrip().rfind(",")
    if at < 0:
        return None
    name = line[at + 1:].strip()
    if not name:
        return at, line[:at + 1].rsplit(",", 2)[-2].strip() + ","
    name = name[:-1] if name.endswith(":") else name
    return (at, line[at + 1:].strip()) if ":" not in name and any(label.startswith(name) for label in _V1_LABELS) else None


def _cut_number(rates_text: str) -> bool:
    """Whether per-position rates that run to the line's end end inside a number or after a
    comma: a last rate ending at its point, or with fewer decimals than the first (vLLM writes all
    alike, "%.3f").
    Found by a cold read: "0.543, 0.357, 0." read as a third position that is never reached."""
    text = rates_text.strip()
    if text.endswith(","):
        return True
    items = [item.strip() for item in text.split(",")]
    digits = [re.fullmatch(r"[0-9]+\.([0-9]*)", item) for item in (items[0], items[-1])]
    return bool(digits[1]) and (items[-1].endswith(".") or
                                (len(items) > 1 and bool(digits[0]) and len(digits[1][1]) < len(digits[0][1])))


def _v1_line(line: str) -> dict | None:
    at = line.find("SpecDecoding metrics:")
    if at < 0:
        return None
    line = line[at:]
    cut = None  # the end of a line cut short where what it lost is what the fit reads
    label = _cut_label(line)
    if label is not None:
        before = line[:label[0]]
        if "Per-position acceptance rate:" not in before:
            line, cut = before, label[1]
        elif not label[1].endswith(","):  # a later field's name cut short: the rates before it are whole
            line = before
    per_pos = re.search(r"Per-position acceptance rate:(.*)", line)
    if per_pos and not re.search(r",[^,:]*:", per_pos.group(1)) and _cut_number(per_pos.group(1)):
        cut = per_pos.group(1).strip()
        # the positions it does hold are read as any line's; the cut one is not a position
        per_pos_text = per_pos.group(1).strip().rsplit(",", 1)[0]
    else:
        per_pos_text = per_pos.group(1) if per_pos else None
    x = {
        "mean": _log_value(r"Mean acceptance length:", line, "Mean acceptance length", "a number from 1 to γ + 1"),
        "mean_text": _log_text(r"Mean acceptance length:", line),
        "accepted": _log_value(r"Accepted:", line, "Accepted", _TOKENS),
        "drafted": _log_value(r"Drafted:", line, "Drafted", _TOKENS),
        "per_pos": (_rate_list(per_pos_text, "Per-position acceptance rate", True, falling=True)
                    if per_pos_text and per_pos_text.strip() else None),
        "throughputs": "Accepted throughput" in line,
        # 0.8.3 and 0.8.4 print this and the counts, but no per-position rates
        "rate": "Draft acceptance rate:" in line,
        "cut": cut,
    }
    if not cut:  # (a cut line is left out: its mean and counts belong to rates it no longer shows)
        _check_v1(x)
    return x


def _leaves_out_bonus(x: dict) -> bool:
    """vLLM 0.8.5 printed accepted / drafts, without the bonus token: its mean is nearer the sum of
    the rates than 1 + that sum (later versions print the throughputs too)."""
    s = sum(0.0 if math.isnan(p) else p for p in x["per_pos"])
    return x["mean"] is not None and not x["throughputs"] and abs(x["mean"] - s) < abs(x["mean"] - 1 - s)


def _check_v1(x: dict) -> None:
    _check_count("Accepted", x["accepted"])
    _check_count("Drafted", x["drafted"])
    if x["accepted"] is not None and x["drafted"] is not None and x["accepted"] > x["drafted"]:
        raise ImpossibleMetricsError("Accepted", f"{_shown(x['accepted'])} tokens, more than the "
                                     f"{_shown(x['drafted'])} Drafted", "0 to the Drafted tokens (a token is drafted "
                                     "before it is accepted)")
    mean = x["mean"]
    if mean is None or math.isnan(mean):
        return
    if not x["per_pos"]:
        low, high, allowed = 1, math.inf, "1 or more (the bonus token counts)"
    elif _leaves_out_bonus(x):
        k = len(x["per_pos"])
        low, high, allowed = 0, k, f"0 to γ = {k} (the line lists {k} positions and leaves out the bonus token)"
    else:
        k = len(x["per_pos"])
        low, high, allowed = 1, k + 1, f"1 to γ + 1 = {k + 1} (the line lists {k} positions)"
    if not (math.isfinite(mean) and low <= mean <= high):
        problem = (f"{_shown(mean)} is less than {low}" if mean < low else f"{_shown(mean)} is more than {high}"
                   if math.isfinite(mean) else f"{_shown(mean)} is not a finite number")
        raise ImpossibleMetricsError("Mean acceptance length", problem, allowed)
    # A draft holds at most γ tokens, so there are at least Drafted / γ drafts, and vLLM's mean,
    # 1 + Accepted / drafts, is at most 1 + Accepted / (Drafted / γ): a printed mean above that
    # cannot be (found by a cold read: 3.50 beside counts that allow 1.15, priced unsaid). Below
    # it, drafts shorter than γ explain it (the reading's note).
    if x["per_pos"] and x["accepted"] is not None and x["drafted"]:
        k = len(x["per_pos"])
        most = 1 + x["accepted"] / (x["drafted"] / k)
        if mean + _leaves_out_bonus(x) > most + MEAN_PRINT_TOLERANCE:
            raise ImpossibleMetricsError(
                "Mean acceptance length", f"{_shown(mean)} is more than the {most - _leaves_out_bonus(x):.2f} its token counts "
                f"allow", f"at most 1 + Accepted / (Drafted / γ){' − 1' if _leaves_out_bonus(x) else ''}, as a draft "
                f"holds at most γ = {k} tokens")


# vLLM prints the mean acceptance length to two decimals: a larger gap is a real disagreement.
MEAN_PRINT_TOLERANCE = 0.01


def _mean_disagrees(gaps: list[float], lines: int, k: int, uneven: bool, printed: float, no_bonus: bool,
                    counted: float) -> str:
    """The note for lines whose printed mean acceptance length is not 1 + accepted / (drafted / k);
    ``printed`` as the line prints it (a cold read found 3.61 quoted for a line printing 2.61)."""
    if lines == 1:
        added = f" ({printed + 1:.2f} with 1 added for the bonus token it leaves out)" if no_bonus else ""
        text = (f"The line prints a mean acceptance length of {printed:.2f}{added}, but its token counts give "
                f"{counted:.2f} (1 + accepted / (drafted / {k})); the printed one is read, as vLLM divides by "
                "its own count of drafts.")
    else:
        text = (f"On {len(gaps):,} of {lines:,} lines the printed mean acceptance length differs from the token "
                f"counts' (1 + accepted / (drafted / {k})) by up to {max(gaps):.2f}.")
    if uneven:
        text += f" The drafted tokens are not a multiple of {k}: some drafts were shorter than {k} positions"
        text += "." if lines == 1 else ", so the number of drafts, and the mean read here, are estimates."
    return text + " The fit uses the per-position rates, not either mean."


def _three_means(x: dict, k: int, no_bonus: bool, counts_said: bool = False) -> str | None:
    """One line's printed mean (+ 1 where it leaves out the bonus token), 1 + the sum of its rates
    and its counts' mean, where they disagree by more than the printing rounds (two decimals for
    the mean, three for each rate): one sentence naming the three, else None."""
    if x["mean"] is None or x["accepted"] is None or not x["drafted"]:
        return None
    printed = x["mean"] + no_bonus
    summed = 1 + sum(0.0 if math.isnan(p) else p for p in x["per_pos"])
    counted = 1 + x["accepted"] / (x["drafted"] / k)
    rounding = MEAN_PRINT_TOLERANCE + 0.0005 * k
    if max(printed, summed, counted) - min(printed, summed, counted) <= rounding:
        return None
    if abs(printed - summed) <= rounding:
        # two means, not three: the note on the printed mean against the counts says it (found by a
        # cold read: 2.10 against 2.65 said twice)
        return None
    if abs(summed - counted) <= rounding:
        # the rates agree with the counts: the printed mean alone is apart, which the note before
        # says where it compares the two (found by a cold read: "2.16, apart from both" beside
        # counts that gave 2.16)
        return None if counts_said else (
            f"The printed mean acceptance length{' + 1 (the bonus token)' if no_bonus else ''} gives {printed:.2f}, "
            f"apart from 1 + the sum of the per-position rates and the token counts, which agree on {counted:.2f}.")
    if counts_said:
        # the note before compares the printed mean with the counts: only the rates' sum is news
        # (found by a cold read: 3.61 against 3.68 said twice)
        return f"1 + the sum of the per-position rates gives {summed:.2f}, apart from both by more than rounding."
    return (f"The line's three means disagree by more than rounding: the printed mean acceptance length"
            f"{' + 1 (the bonus token)' if no_bonus else ''} gives {printed:.2f}, 1 + the sum of the per-position rates "
            f"{summed:.2f}, and the token counts (1 + accepted / (drafted / {k})) {counted:.2f}.")


def _printed_mean(used: list[dict]) -> str | None:
    """The mean acceptance length one line prints, as it prints it (None for several lines, or none
    printed)."""
    mean = used[0]["mean"] if len(used) == 1 else None
    return None if mean is None or math.isnan(mean) else used[0]["mean_text"]


# What a 'SpecDecoding metrics:' line prints in one vLLM version or another (0.8.3 on).
V1_FIELDS = ("Mean acceptance length", "Accepted", "Drafted", "Per-position acceptance rate", "Draft acceptance rate")


def _unreadable_v1(lines: int) -> str:
    """The note for 'SpecDecoding metrics:' lines with none of V1_FIELDS (parse.js unreadableV1)."""
    which = "The line has" if lines == 1 else f"The {lines:,} lines have"
    return (f"{which} none of the fields vLLM prints after 'SpecDecoding metrics:' ({', '.join(V1_FIELDS)}), so "
            f"{'it' if lines == 1 else 'they'} could not be read; give whole lines as vLLM logs them.")


def _cut_v1(cut: list[str], lines: int) -> str:
    """The note for V1 lines cut short (``cut``: where each ends), of ``lines`` (parse.js cutV1)."""
    end = f"'…{cut[-1]}'"
    if len(cut) == lines:
        which = "The line is" if lines == 1 else f"The {lines:,} lines are"
        return (f"{which} cut off before {'its' if lines == 1 else 'their'} end (the last ends {end}), so the "
                "per-position acceptance rates are missing or incomplete; give whole lines as vLLM logs them.")
    return (f"{len(cut):,} of {_plural(lines, 'line')} were left out: cut off before their end (the last ends "
            f"{end}); give whole lines as vLLM logs them.")


def _plural(n: int, unit: str) -> str:
    return f"{n:,} {unit}{'' if n == 1 else 's'}"


def gamma_changed(lengths: list[int], k: int, unit: str) -> str | None:
    """The note for ``unit``s (lines, requests) whose numbers of draft positions differ, ``k`` the
    one read (the most common; on a tie the first): which were left out, so that a text spanning a
    change of num_speculative_tokens is not read as one γ unsaid (found by a cold read: 1 line at
    γ = 4 and 1 at γ = 3 read as γ = 4, the other only "left out"). None where all agree. The page
    writes the same (parse.js gammaChanged)."""
    counts = Counter(lengths)
    if len(counts) < 2:
        return None
    tie = sum(1 for n in counts.values() if n == counts[k]) > 1
    others = " and ".join(f"{_plural(n, unit)} at γ = {g}" for g, n in counts.items() if g != k)
    why = "as many as at another γ, and first in the text" if tie else "more than at any other γ"
    return (f"γ changed within the text: the fit reads the {_plural(counts[k], unit)} at γ = {k} ({why}) "
            f"and leaves out {others}; give {unit}s of one γ to fit another.")


def _one_gamma(with_pos: list[dict], records: int, unit: str, missing: str) -> tuple[int, list[dict], list[str]]:
    """The γ the fit reads from ``with_pos`` (the records with per-position rates, of ``records``):
    the most common number of positions, the first on a tie; the records at it; and the notes on
    what was left out (``missing``: why a record has no rates) and on a γ that changed."""
    k = Counter(len(x["per_pos"]) for x in with_pos).most_common(1)[0][0]
    notes = []
    if len(with_pos) < records:
        notes.append(f"{records - len(with_pos):,} of {_plural(records, unit)} were left out: they have {missing}.")
    changed = gamma_changed([len(x["per_pos"]) for x in with_pos], k, unit)
    if changed:
        notes.append(changed)
    return k, [x for x in with_pos if len(x["per_pos"]) == k], notes


def _pool_v1(all_lines: list[dict]) -> Reading:
    notes: list[str] = []
    # A line cut short is left out: what it holds is not what vLLM measured over its interval.
    lines = [x for x in all_lines if not x["cut"]]
    cut = [x["cut"] for x in all_lines if x["cut"]]
    if not lines:
        return Reading("vLLM V1 log", len(all_lines), notes=(_cut_v1(cut, len(all_lines)),))
    if cut:
        notes.append(_cut_v1(cut, len(all_lines)))
    with_pos = [x for x in lines if x["per_pos"]]
    if not any(x["per_pos"] or x["rate"] or x["mean"] is not None or x["accepted"] is not None
               or x["drafted"] is not None for x in lines):
        # A line with none of the fields any vLLM version prints is unreadable (cut short, or not
        # vLLM's), not an old version's: found once, "SpecDecoding metrics: garbage" told to paste
        # a line from vLLM 0.8.5 or later.
        return Reading("vLLM V1 log", len(all_lines), notes=tuple(notes + [_unreadable_v1(len(lines))]))
    if not with_pos:
        accepted = sum(x["accepted"] or 0 for x in lines)
        drafted = sum(x["drafted"] or 0 for x in lines)
        means = [x["mean"] for x in lines if x["mean"] is not None]
        notes.append("The lines have no per-position acceptance rates (vLLM 0.8.3 and 0.8.4 print none), so "
                     "the number of draft positions and the shape of acceptance cannot be told; give a line from "
                     "vLLM 0.8.5 or later, or the Prometheus counters.")
        return Reading("vLLM V1 log", len(all_lines), num_draft_tokens=drafted or None, num_accepted_tokens=accepted,
                       mean_acceptance_length=means[-1] if means else None, notes=tuple(notes))
    k, used, left_out = _one_gamma(with_pos, len(lines), "line", "no per-position rates")
    notes += left_out
    no_bonus = False
    drafts_total = accepted_total = drafted_total = 0.0
    weighted = [0.0] * k
    gaps: list[float] = []  # |printed mean − the counts' mean| on the lines where they disagree
    uneven = False
    for x in used:
        pos = [0.0 if math.isnan(p) else p for p in x["per_pos"]]
        mean = x["mean"]
        line_no_bonus = _leaves_out_bonus(x)
        no_bonus = no_bonus or line_no_bonus
        # vLLM prints no draft count: drafted / k is exact when every draft has all k positions
        # (no count at all: the lines weigh the same)
        drafts = x["drafted"] / k if x["drafted"] is not None else 1.0
        accepted = x["accepted"] if x["accepted"] is not None else drafts * sum(pos)
        if x["drafted"] is not None and x["drafted"] % k:
            uneven = True
        if mean is not None and x["accepted"] is not None and drafts > 0:
            gap = abs(mean + line_no_bonus - (1 + accepted / drafts))
            if gap >= MEAN_PRINT_TOLERANCE:
                gaps.append(gap)
        drafts_total += drafts
        accepted_total += accepted
        drafted_total += x["drafted"] if x["drafted"] is not None else drafts * k
        for j, p in enumerate(pos):
            weighted[j] += p * drafts
    if no_bonus:
        notes.append("The mean acceptance length leaves out the bonus token, as vLLM 0.8.5 printed it; 1 was added.")
    if drafts_total <= 0:
        return Reading("vLLM V1 log", len(all_lines), gamma=k, notes=tuple(notes + [
            "The lines count no drafts: nothing was speculated in their interval."]))
    per_pos = tuple(w / drafts_total for w in weighted)
    mean = 1 + accepted_total / drafts_total
    derived = {"num_drafts": f"drafted tokens / {k}", "mean_acceptance_length": "1 + accepted / drafts"}
    if len(used) > 1:
        notes.append(f"{len(used):,} lines were pooled, each weighted by its number of drafts (drafted tokens / {k}).")
    if gaps:
        printed = used[0]["mean"] + no_bonus
        notes.append(_mean_disagrees(gaps, len(used), k, uneven, used[0]["mean"], no_bonus, mean))
        if len(used) == 1 and printed > 1 and used[0]["accepted"] is not None:
            # vLLM divides by its own count of drafts: one line's printed mean is the better one
            mean, drafts_total = printed, accepted_total / (printed - 1)
            derived["num_drafts"] = ("accepted / the printed mean acceptance length" if no_bonus
                                     else "accepted / (the printed mean acceptance length − 1)")
            derived["mean_acceptance_length"] = f"the printed {used[0]['mean']:.2f} + 1 for the bonus token" \
                if no_bonus else None
    three = _three_means(used[0], k, no_bonus, bool(gaps)) if len(used) == 1 else None
    if three:
        notes.append(three)
    derived = {key: how for key, how in derived.items() if how}
    # Lines without token counts were weighted as one draft each: counts made up for them are not shown.
    counted = all(x["accepted"] is not None and x["drafted"] is not None for x in used)
    return Reading("vLLM V1 log", len(all_lines), gamma=k, num_drafts=drafts_total if counted else None,
                   num_draft_tokens=drafted_total if counted else None,
                   num_accepted_tokens=accepted_total if counted else None, mean_acceptance_length=mean,
                   per_position_acceptance=per_pos, notes=tuple(notes),
                   printed_mean_acceptance_length=_printed_mean(used),
                   derived=derived if counted else {"mean_acceptance_length": "1 + the sum of the per-position rates"})


# --- vLLM V0 log lines ------------------------------------------------------------------------

def _v0_line(line: str) -> dict | None:
    at = line.find("Speculative metrics:")
    if at < 0:
        return None
    line = line[at:]
    x = {
        "rate": _log_value(r"Draft acceptance rate:", line, "Draft acceptance rate", "a number from 0 to 1"),
        "k": _log_value(r"Number of speculative tokens:", line, "Number of speculative tokens", _TOKENS),
        "accepted": _log_value(r"Number of accepted tokens:", line, "Number of accepted tokens", _TOKENS),
        "drafted": _log_value(r"Number of draft tokens(?: tokens)?:", line, "Number of draft tokens", _TOKENS),
        "emitted": _log_value(r"Number of emitted tokens(?: tokens)?:", line, "Number of emitted tokens", _TOKENS),
    }
    _check_v0(x)
    return x


def _check_v0(x: dict) -> None:
    rate, k, drafted, emitted = x["rate"], x["k"], x["drafted"], x["emitted"]
    if rate is not None and not math.isnan(rate) and not 0 <= rate <= 1:
        raise ImpossibleMetricsError("Draft acceptance rate", f"{_shown(rate)} is not a rate", "a number from 0 to 1")
    for field, key in (("Number of speculative tokens", "k"), ("Number of accepted tokens", "accepted"),
                       ("Number of draft tokens", "drafted"), ("Number of emitted tokens", "emitted")):
        _check_count(field, x[key])
    if x["accepted"] is not None and drafted is not None and x["accepted"] > drafted:
        raise ImpossibleMetricsError("Number of accepted tokens", f"{_shown(x['accepted'])}, more than the "
                                     f"{_shown(drafted)} draft tokens", "0 to the Number of draft tokens")
    if not k or drafted is None:
        return
    # V0 drafts all k positions at every step: its draft tokens are steps × k
    if drafted % k:
        raise ImpossibleMetricsError("Number of draft tokens", f"{_shown(drafted)} is not a multiple of the "
                                     f"{_shown(k)} speculative tokens", f"a multiple of {_shown(k)}")
    drafts = drafted / k
    if emitted is not None and drafts and not drafts <= emitted <= drafts * (k + 1):
        raise ImpossibleMetricsError("Number of emitted tokens", f"{_shown(emitted)} in {_shown(drafts)} drafts is a "
                                     f"mean acceptance length outside 1 to γ + 1 = {_shown(k + 1)}",
                                     f"{_shown(drafts)} to {_shown(drafts * (k + 1))}")
    # every token of an accepted prefix passed its test, which V0 counts (found by a cold read:
    # 1,200 accepted tokens beside 2,000 in accepted prefixes, read unsaid)
    if x["accepted"] is not None and emitted is not None and x["accepted"] < emitted - drafts:
        raise ImpossibleMetricsError("Number of accepted tokens", f"{_shown(x['accepted'])}, fewer than the "
                                     f"{_shown(emitted - drafts)} tokens of the accepted prefixes (emitted − drafts)",
                                     f"{_shown(emitted - drafts)} to {_shown(drafted)} (every token of an accepted "
                                     "prefix passed its test)")


def _read_v0(lines: list[dict]) -> Reading:
    last = lines[-1]
    notes = ["vLLM V0 counts since the server started, so the last line was read (it holds the whole run)."]
    k, drafted, emitted = last["k"], last["drafted"], last["emitted"]
    if not k or drafted is None or emitted is None:
        return Reading("vLLM V0 log", len(lines), v0_draft_acceptance_rate=last["rate"], notes=tuple(notes + [
            "The line lacks the number of speculative, draft or emitted tokens needed for the mean acceptance length."]))
    k = int(k)
    ks = [int(x["k"]) for x in lines if x["k"]]
    settings = [g for i, g in enumerate(ks) if i == 0 or g != ks[i - 1]]
    if len(settings) > 1:
        # V0's counters start again with the server: the last line holds only the run since
        notes[0] = (f"γ changed within the text (Number of speculative tokens {', then '.join(map(str, settings))}): "
                    f"the server restarted, and vLLM V0 counts since it started, so the last line was read, at γ = {k}; "
                    "it holds only the run since the restart.")
    if drafted == 0:
        return Reading("vLLM V0 log", len(lines), gamma=k, v0_draft_acceptance_rate=last["rate"],
                       notes=tuple(notes + ["The line counts no draft tokens: nothing was speculated yet."]))
    drafts = drafted / k
    mean = emitted / drafts
    rate = last["rate"]
    if last["accepted"] is not None and rate is not None and abs(rate - last["accepted"] / drafted) > 0.0005:
        # V0's rate is accepted / draft tokens: the counts are exact (found by a cold read: 0.612
        # printed beside counts giving 0.510, read unsaid)
        notes.append(f"The line prints a draft acceptance rate of {rate:.3f}, but its token counts give "
                     f"{last['accepted'] / drafted:.3f} (accepted / draft tokens); the counts are read.")
        rate = last["accepted"] / drafted
    notes.append("V0 prints no per-position rates: the shape of acceptance is told from its draft acceptance rate "
                 "(see the fit).")
    notes.append("V0's draft acceptance rate counts every draft token that passes its test, even after an earlier "
                 "rejection: an estimate of α averaged over positions, not the share of drafts accepted.")
    return Reading("vLLM V0 log", len(lines), gamma=k, num_drafts=drafts, num_draft_tokens=drafted,
                   num_accepted_tokens=emitted - drafts, mean_acceptance_length=mean,
                   v0_draft_acceptance_rate=rate, notes=tuple(notes),
                   derived={"num_drafts": "draft tokens / γ", "num_accepted_tokens": "emitted tokens − drafts",
                            "mean_acceptance_length": "emitted tokens / drafts"})


# --- llama-server lines -----------------------------------------------------------------------

_LLAMA = re.compile(r"draft acceptance(?: rate)? = ([0-9]+(?:\.[0-9]*)?) \(\s*([0-9]+) accepted /\s*([0-9]+) "
                    r"generated\)(?:, mean len =\s*([0-9]+(?:\.[0-9]*)?))?")
_LLAMA_POS = re.compile(r"acc per pos = \(([^)]*)\)")


def _read_llama(lines: list[str]) -> Reading:
    notes: list[str] = []
    requests = []
    for line in lines:
        m = _LLAMA.search(line)
        if m:
            request = {"accepted": float(m.group(2)), "drafted": float(m.group(3)),
                       "mean": float(m.group(4)) if m.group(4) else None, "per_pos": None}
            if float(m.group(1)) > 1:
                raise ImpossibleMetricsError("draft acceptance", f"{_shown(float(m.group(1)))} is not a rate",
                                             "a number from 0 to 1")
            if request["accepted"] > request["drafted"]:
                raise ImpossibleMetricsError("accepted", f"{_shown(request['accepted'])}, more than the "
                                             f"{_shown(request['drafted'])} generated",
                                             "0 to the generated draft tokens")
            if request["mean"] is not None and request["mean"] < 1:
                raise ImpossibleMetricsError("mean len", f"{_shown(request['mean'])} is less than 1",
                                             "1 or more (the bonus token counts)")
            requests.append(request)
            continue
        p = _LLAMA_POS.search(line)
        if p and requests:
            # llama-server's rates are not documented as unconditional: only their range is checked
            requests[-1]["per_pos"] = _rate_list(p.group(1), "acc per pos", False, falling=False)
    records = len(requests)
    accepted = sum(r["accepted"] for r in requests)
    drafted = sum(r["drafted"] for r in requests)
    with_mean = [r for r in requests if r["mean"] is not None and r["mean"] > 1]
    with_pos = [r for r in with_mean if r["per_pos"]]
    if with_pos:
        # what the fit reads is what the counts and the mean are of: the requests at one γ, with
        # their rates (found by a cold read: rates of the γ = 4 request beside counts and a mean
        # pooled with the γ = 3 request left out)
        gamma, used, left_out = _one_gamma(with_pos, records, "request", "no 'acc per pos' line or no mean len")
        notes += left_out
        requests = with_mean = used
        accepted = sum(r["accepted"] for r in used)
        drafted = sum(r["drafted"] for r in used)
    if not with_mean:
        notes.append("These llama-server lines give accepted / drafted tokens only (no mean len): the number of "
                     "verify passes, and so the mean acceptance length, cannot be told.")
        return Reading("llama-server log", records, num_draft_tokens=drafted, num_accepted_tokens=accepted,
                       notes=tuple(notes))
    drafts_total = sum(r["accepted"] / (r["mean"] - 1) for r in with_mean)
    accepted_with = sum(r["accepted"] for r in with_mean)
    mean = 1 + accepted_with / drafts_total
    per_pos = None
    if with_pos:
        weights = [r["accepted"] / (r["mean"] - 1) for r in used]
        per_pos = tuple(sum(r["per_pos"][j] * w for r, w in zip(used, weights)) / sum(weights) for j in range(gamma))
    else:
        gamma = None
        notes.append("No 'acc per pos' lines (llama-server prints them at trace level), so the number of draft "
                     "positions and the shape of acceptance cannot be told.")
    if len(requests) > 1:
        notes.append(f"{len(requests):,} requests were pooled, each weighted by its verify passes.")
    return Reading("llama-server log", records, gamma=gamma, num_drafts=drafts_total, num_draft_tokens=drafted,
                   num_accepted_tokens=accepted, mean_acceptance_length=mean, per_position_acceptance=per_pos,
                   notes=tuple(notes), derived={"num_drafts": "accepted / (the printed mean acceptance length − 1), summed over requests",
                                                "mean_acceptance_length": "1 + accepted / drafts"})


# --- Prometheus text format -------------------------------------------------------------------

_SAMPLE = re.compile(r"^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
_COUNTERS = ("spec_decode_num_drafts", "spec_decode_num_draft_tokens", "spec_decode_num_accepted_tokens",
             "spec_decode_num_accepted_tokens_per_pos")


def _metric(name: str) -> tuple[str, str] | None:
    """(engine prefix, our name) for the metrics we read, else None."""
    prefix, _, rest = name.partition(":")
    if prefix not in ("vllm", "llamacpp") or not rest or rest.endswith("_created"):
        return None
    if rest.endswith("_total"):
        rest = rest[: -len("_total")]
    if rest in _COUNTERS or rest == "num_requests_running" or rest == "spec_decode_num_emitted_tokens":
        return prefix, rest
    return None


_PROM_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _prom_value(text: str) -> float | None:
    """A sample's value as the text format writes it (Go-style floats, NaN, ±Inf); None otherwise."""
    if text in ("+Inf", "Inf", "inf", "+inf"):
        return math.inf
    if text in ("-Inf", "-inf"):
        return -math.inf
    if text in ("NaN", "nan"):
        return math.nan
    return float(text) if _PROM_NUMBER.fullmatch(text) else None


_COUNT = "a number from 0 up (a count)"


def _scrapes(lines: list[str]) -> tuple[str, list[dict], dict, tuple[str, ...]]:
    """Split the samples into scrapes (a series seen again starts the next scrape); each scrape maps
    (metric, position) → value summed over the other labels. Only the samples of the first model
    the text names (vLLM's ``model_name`` label, the served model's name) are read, a server serving
    one. Also: each metric's name as the text writes it, for the refusals, and the models its
    samples name, in the text's order (the one read first). A value that is not a count (NaN,
    ±Inf, negative, not a number) is refused: read as 0 it became "no drafts"."""
    scrapes: list[dict] = []
    seen: set = set()
    current: dict = {}
    prefix = ""
    names: dict = {}
    models: list = []  # in the order the text names them
    for line in lines:
        if line.lstrip().startswith("#"):
            continue
        m = _SAMPLE.match(line)
        if not m:
            continue
        named = _metric(m.group(1))
        if not named:
            continue
        labels = dict(_LABEL.findall(m.group(2) or ""))
        model = labels.get("model_name")
        if model and model not in models:
            models.append(model)
        # vLLM serves one model a server: another model's samples are another server's, not more
        # of this one's (found by a cold read: two servers' scrapes were added up as one load)
        if model and model != models[0]:
            continue
        value = _prom_value(m.group(3))
        if value is None:
            raise ImpossibleMetricsError(m.group(1), f"{_quoted(m.group(3))} is not a number", _COUNT)
        if not (math.isfinite(value) and value >= 0):
            raise ImpossibleMetricsError(m.group(1), f"{m.group(3)} is not a count", _COUNT)
        prefix = prefix or named[0]
        names.setdefault(named[1], m.group(1))
        position = labels.get("position", "")
        if named[1] == "spec_decode_num_accepted_tokens_per_pos" and not re.fullmatch("[0-9]+", position):
            problem = (f"position={_quoted(labels['position'])} is not a position" if "position" in labels
                       else "a sample without a position label")
            raise ImpossibleMetricsError(m.group(1), problem, 'a position="0", "1", … label on every sample')
        series = (m.group(1), tuple(sorted(labels.items())))
        if series in seen:
            scrapes.append(current)
            current, seen = {}, set()
        seen.add(series)
        # the running gauge by engine: vLLM's data-parallel engines each run their own batch
        key = (named[1], labels.get("engine", "") if named[1] == "num_requests_running" else labels.get("position"))
        current[key] = current.get(key, 0.0) + value
    if current:
        scrapes.append(current)
    return prefix, scrapes, names, tuple(models)


def _gauges(scrape: dict) -> list[float]:
    """A scrape's running gauges, one per engine."""
    return [v for k, v in scrape.items() if k[0] == "num_requests_running"]


def _load(scrape: dict) -> float | None:
    """A scrape's running requests per engine (vLLM's data-parallel engines each run their own
    batch); None without the gauge."""
    gauges = _gauges(scrape)
    return sum(gauges) / len(gauges) if gauges else None


# How far the running gauge may move between a window's first and last scrapes unsaid: less than
# a doubling, one step of the simulation's batch scale.
LOAD_MOVED_RATIO = 2


def _load_moved(first: dict, last: dict, scrapes: int, per_engine: bool) -> str | None:
    """The note for a window over which the running gauge (per engine) moved by a doubling or more
    (parse.js loadMoved): the answer prices the last scrape's, a moment's load. Found by a cold
    read: two scrapes at 12 and 40 running requests were priced at 40, unsaid. None else."""
    a, b = _load(first), _load(last)
    if a is None or b is None or max(a, b) < LOAD_MOVED_RATIO * min(a, b) or a == b:
        return None
    each = " per engine" if per_engine else ""
    return (f"vllm:num_requests_running was {grouped(a)}{each} in the first of the {scrapes:,} scrapes and {grouped(b)} in "
            "the last: the load moved over the window, and the answer prices the last scrape's.")


def _check_window(names: dict, drafts: float, drafted: float | None, accepted: float | None,
                  positions: list, ends_at: str | None = None) -> None:
    """Counts over one window that cannot be: more accepted tokens than drafted, drafts of more
    positions than the counters list, a position reached by more drafts than the one before it.
    ``ends_at``: the position of the text's last line where it is a per-position sample (found by a
    cold read: a scrape cut after a whole sample, its positions short of γ, was refused for numbers
    that cannot be, unsaid that it may be cut)."""
    gamma = len(positions) or None
    name = names.get
    if positions and [p for p, _ in positions] != list(range(positions[0][0], positions[0][0] + len(positions))):
        missing = next(positions[0][0] + i for i, (p, _) in enumerate(positions) if p != positions[0][0] + i)
        raise ImpossibleMetricsError(name("spec_decode_num_accepted_tokens_per_pos"), f"position {missing} is missing",
                                     f"every position from {positions[0][0]} to {positions[-1][0]}")
    if drafted is not None and not (drafts <= drafted <= (gamma or math.inf) * drafts):
        allowed = (f"{_shown(drafts)} to {_shown(gamma * drafts)} (1 to γ = {gamma} tokens a draft)" if gamma
                   else f"{_shown(drafts)} or more (at least 1 token a draft)")
        cut = (f" (the scrape ends with position {ends_at}'s sample: if it is cut off there, give whole scrapes)"
               if ends_at is not None and gamma and drafted > gamma * drafts else "")
        raise ImpossibleMetricsError(name("spec_decode_num_draft_tokens"),
                                     f"{_shown(drafted)} draft tokens in {_shown(drafts)} drafts{cut}", allowed)
    ceiling = drafted if drafted is not None else gamma * drafts if gamma else None
    if accepted is not None and ceiling is not None and accepted > ceiling:
        raise ImpossibleMetricsError(name("spec_decode_num_accepted_tokens"),
                                     f"{_shown(accepted)} accepted tokens, more than the {_shown(ceiling)} drafted",
                                     f"0 to {_shown(ceiling)} (a token is drafted before it is accepted)")
    for j, (p, v) in enumerate(positions):
        if v > drafts:
            raise ImpossibleMetricsError(name("spec_decode_num_accepted_tokens_per_pos"),
                                         f"{_shown(v)} at position {p}, more than the {_shown(drafts)} drafts",
                                         f"0 to {_shown(drafts)} at every position")
        if j and v > positions[j - 1][1]:
            raise ImpossibleMetricsError(name("spec_decode_num_accepted_tokens_per_pos"),
                                         f"{_shown(v)} at position {p}, more than the {_shown(positions[j - 1][1])} "
                                         f"at position {positions[j - 1][0]}", "each position at most the one before "
                                         "it (a draft reaches a position only through the ones before it)")


def _other_models(models: tuple[str, ...]) -> str:
    """The note for a scrape of several servers (parse.js otherModels): the first model's samples
    were read."""
    others = ", ".join(quoted_name(m) for m in models[1:])
    return (f"The text holds the metrics of {len(models):,} models (their model_name labels), so of as many servers: "
            f"only those of {quoted_name(models[0])}, the first, were read, and those of {others} left out; "
            "give one server's scrapes.")


# How much of a served model's name a note quotes.
MODEL_NAME_CHARS = 60


def quoted_name(name: str) -> str:
    """A served model's name as a note quotes it: in quotes, cut to MODEL_NAME_CHARS with "…"."""
    return "'" + (name[:MODEL_NAME_CHARS] + "…" if len(name) > MODEL_NAME_CHARS else name) + "'"


def _went_down(before: dict, after: dict) -> bool:
    """Whether a counter (not the running gauge) of ``after`` is lower than in ``before``."""
    return any(v < before[k] for k, v in after.items() if k[0] != "num_requests_running" and k in before)


def _read_prometheus(lines: list[str], ends_at: str | None = None) -> Reading | None:
    prefix, scrapes, names, models = _scrapes(lines)
    if not scrapes:  # no sample of ours
        return None
    source = "Prometheus (vLLM)" if prefix == "vllm" else "Prometheus (llama.cpp)"
    # every reading of this text says which model it read (a report says where the answer prices another)
    reading = partial(Reading, model_names=models[:1])
    notes: list[str] = []
    if len(models) > 1:
        notes.append(_other_models(models))
    last = scrapes[-1]
    gauges, running = _gauges(last), _load(last)
    if len(gauges) > 1:
        notes.append(f"vllm:num_requests_running: {grouped(sum(gauges))} over {len(gauges):,} engines, {grouped(running)} per "
                     f"engine. {DATA_PARALLEL}")
    # A counter lower than in the scrape before: the server restarted there, and only the scrapes
    # since then are one run (found by a cold read: such a text was refused where its last scrapes
    # could be read)
    start = max((i for i in range(1, len(scrapes)) if _went_down(scrapes[i - 1], scrapes[i])), default=0)
    run = scrapes[start:]
    restart = (f"The counters went down between scrapes {start} and {start + 1}: the server restarted, " if start
               else "")
    if len(run) >= 2:
        first = run[0]
        values = {k: v - first.get(k, 0.0) for k, v in last.items() if k[0] != "num_requests_running"}
        moved = _load_moved(first, last, len(run), len(gauges) > 1)
        if moved:
            notes.append(moved)
        window = (f"{restart}so the {len(run):,} scrapes since were read, as the change from the first to the last."
                  if start else f"{len(scrapes):,} scrapes: the counters were read as the change from the first to the last.")
    else:
        values = {k: v for k, v in last.items() if k[0] != "num_requests_running"}
        window = (f"{restart}so the last scrape was read alone: its counters are totals since the restart; give "
                  "two scrapes of one run, taken a while apart, for the recent rate." if start else
                  "One scrape: its counters are totals since the server started; give two scrapes taken a while "
                  "apart for the recent rate.")
    drafts = values.get(("spec_decode_num_drafts", None))
    drafted = values.get(("spec_decode_num_draft_tokens", None))
    accepted = values.get(("spec_decode_num_accepted_tokens", None))
    positions = sorted((int(k[1]), v) for k, v in values.items()
                       if k[0] == "spec_decode_num_accepted_tokens_per_pos" and k[1] is not None and k[1].isdigit())
    if ("spec_decode_num_emitted_tokens", None) in values and drafts is None:
        return reading(source, len(scrapes), running_requests=running, notes=tuple(notes + [
            "This is a vLLM V0 scrape, whose spec_decode counters add their own running totals again at every "
            "export (vLLM pull request #15415); give V0's 'Speculative metrics:' log line instead."]))
    if drafts is None and drafted is None and accepted is None:
        return reading(source, len(scrapes), running_requests=running, notes=tuple(notes + [
            "The scrape has no spec_decode counters: the server is not speculating, or these are another "
            "server's metrics."]))
    if any(v < 0 for v in values.values()):
        return reading(source, len(scrapes), running_requests=running, notes=tuple(notes + [
            "The counters went down between the scrapes: the server restarted; give two scrapes of one run."]))
    if not drafts:
        return reading(source, len(scrapes), num_drafts=drafts, num_draft_tokens=drafted, num_accepted_tokens=accepted,
                       running_requests=running, notes=tuple(notes + [
                           "The counters show no drafts (num_drafts is missing or did not move): nothing was "
                           "speculated in this window."]))
    _check_window(names, drafts, drafted, accepted, positions, ends_at)
    # how the counters were read, said where they were (found by a cold read: "read as the change
    # from the first to the last" beside "the counters went down: the server restarted")
    notes.append(window)
    per_pos = tuple(v / drafts for _, v in positions) if positions else None
    gamma = len(positions) if positions else (math.floor(drafted / drafts + 0.5) if drafted else None)
    if not positions:
        why = "vLLM before 0.8.5" if prefix == "vllm" else "llama.cpp before its first finished speculative request"
        notes.append(f"No per-position counters ({why}), so the shape of acceptance cannot be told.")
    mean = 1 + accepted / drafts if accepted is not None else None
    return reading(source, len(scrapes), gamma=gamma, num_drafts=drafts, num_draft_tokens=drafted,
                   num_accepted_tokens=accepted, mean_acceptance_length=mean, per_position_acceptance=per_pos,
                   running_requests=running, notes=tuple(notes),
                   derived={"mean_acceptance_length": "1 + accepted / drafts"} if mean is not None else {})


# --- vLLM engine-stats lines ------------------------------------------------------------------

_RUNNING = re.compile(r"Running: ([0-9]+) reqs")
# Engine lines whose running counts differ by more than this factor are said to span a changing load.
SPREAD_RATIO = 4
_ENGINE = re.compile(r"Engine ([0-9]+):")


# Why the load priced is one engine's (found by a cold read: two engines' 32 running requests each
# priced as a batch of 64 on one GPU). vLLM's "Engine 000", "Engine 001" (the engine label of its
# metrics) are data-parallel engines, each with its own GPUs and its own batch.
DATA_PARALLEL = ("vLLM's data-parallel engines each run their own batch on their own GPUs: one engine's load is the "
                 "batch to price.")


def _engine_running(lines: list[str]) -> tuple[float, str] | None:
    """The concurrent requests the engine-stats lines report, and the note that says how: per
    engine the median "Running: N reqs" of its lines (the median, so that one ramp-up or drain
    interval does not move it), averaged over engines (DATA_PARALLEL). Lines with
    Running: 0 are idle intervals, in which nothing is drafted: left out. None without such lines."""
    by_engine: dict[str, list[int]] = {}
    idle = 0
    for line in lines:
        m = _RUNNING.search(line)
        if not m:
            continue
        if int(m.group(1)) == 0:
            idle += 1
            continue
        engine = _ENGINE.search(line)
        by_engine.setdefault(engine.group(1) if engine else "", []).append(int(m.group(1)))
    if not by_engine and not idle:
        return None
    busy = sum(len(v) for v in by_engine.values())
    running = float(sum(statistics.median(v) for v in by_engine.values())) / max(1, len(by_engine))
    if not by_engine:
        note = (f"{'The engine log line reports' if idle == 1 else f'All {idle:,} engine log lines report'} Running: 0 reqs "
                f"(idle): the load cannot be told from {'it' if idle == 1 else 'them'}.")
    elif busy == 1:
        note = f"Running requests: {grouped(running)}, the 'Running: N reqs' of the one engine log line."
    elif len(by_engine) == 1:
        note = f"Running requests: {grouped(running)}, the median of the 'Running: N reqs' of {busy:,} engine log lines."
    else:
        note = (f"Running requests: {grouped(running)} per engine, the median of each engine's 'Running: N reqs' "
                f"({busy:,} lines) averaged over {len(by_engine):,} engines. {DATA_PARALLEL}")
    if idle and by_engine:
        note += f" {idle:,} line{'s' if idle != 1 else ''} with Running: 0 reqs (idle, nothing drafted) left out."
    medians = [statistics.median(v) for v in by_engine.values()]
    if len(medians) > 1 and max(medians) > SPREAD_RATIO * min(medians):
        # found by a cold read: engines at 4.5 and 122 priced as one engine at 63.25
        note += (f" The engines' loads differ ({', '.join(grouped(float(m)) for m in medians)}): their average is "
                 "no engine's load; price each engine's on its own.")
    # a load that changed a lot over the text: one γ for its median fits neither end (found by a
    # cold read: 3 and 90 running requests read as "46.5" and priced at 64)
    lo, hi = max(((min(v), max(v)) for v in by_engine.values()), key=lambda r: r[1] / r[0], default=(1, 1))
    if hi > SPREAD_RATIO * lo:
        note += (f" The lines range from {grouped(float(lo))} to {grouped(float(hi))} running requests: the load changed over the text, "
                 "and the γ by load below follows it where one γ cannot.")
    return running, note


# --- the entry point --------------------------------------------------------------------------

def parse_metrics(text: str) -> Reading:
    """Read ``text`` (log lines and/or a scrape; other lines are ignored) into a Reading.

    Prometheus counters win over log lines when both are present (they carry exact counts).
    Raises MetricsInputError (one sentence with an example) when nothing in the text is readable,
    or the text is longer than MAX_TEXT_CHARS; ImpossibleMetricsError (a MetricsInputError naming
    the field and what it allows) when a number in it cannot be.
    """
    if len(text) > MAX_TEXT_CHARS:
        raise MetricsInputError(f"the text has {len(text):,} characters, more than the {MAX_TEXT_CHARS:,} read; "
                                "give the last few log lines or one or two scrapes", recognised=True)
    lines = text.splitlines()
    reading = _read_text(lines)
    positions = len(reading.per_position_acceptance or ())
    startup, servers_note = _startup(lines, positions, reading.model_names)
    reading = replace(reading, startup=startup)
    told = startup["num_speculative_tokens"] if startup else None
    if told and positions and told != positions:
        # found by a cold read: a start-up line of one run and the metrics of another, the first's
        # drafter credited with the second's acceptance unsaid
        reading = replace(reading, notes=(_startup_gamma(told, positions, startup["said_in"], bool(servers_note)),)
                          + reading.notes)
    if servers_note:
        reading = replace(reading, notes=(servers_note,) + reading.notes)
    if reading.running_requests is None:
        # the scrape's gauge, where there is one, is exact; else the engine-stats lines tell the load
        engine = _engine_running([ln for ln in lines if "Running:" in ln])
        if engine:
            # first: the last note is the one a failed fit quotes as what is missing
            reading = replace(reading, running_requests=engine[0], notes=(engine[1],) + reading.notes,
                              running_requests_from_engine_lines=True)
    _check_limits(reading)
    return reading


# vLLM's start-up line: "Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B',
# speculative_config=SpeculativeConfig(method='eagle3', model='…', num_spec_tokens=3), …"
# (vllm/config SpeculativeConfig.__repr__; model=None for n-gram and suffix decoding).
_STARTUP_MODEL = re.compile(r"with config: model='([^']*)'")
# (model= optional: found by a cold read, a line shortened by hand to its method was read as
# naming no drafter)
_STARTUP_SPECULATIVE = re.compile(r"speculative_config=SpeculativeConfig\(method='([^']*)'(?:, model=(?:'([^']*)'|None))?")
_STARTUP_TP = re.compile(r"\btensor_parallel_size=(\d{1,6})\b")
_STARTUP_GAMMA = re.compile(r"\bnum_spec_tokens=(\d{1,6})\b")
# The served model of a start-up line cut before "with config:": its model='…' ahead of the
# speculative config.
_STARTUP_ANY_MODEL = re.compile(r"(?:^|[\s(,])model='([^']*)'")
# vLLM's other start-up line (vllm/entrypoints/utils.py log_non_default_args): "non-default args:
# {'model': 'Qwen/Qwen3-14B', 'speculative_config': {'method': 'eagle3', 'model': '…',
# 'num_speculative_tokens': 3}, 'tensor_parallel_size': 2}" (found by a cold read: such a log was
# answered "The text does not say which drafter produced it").
_ARGS_LINE = re.compile(r"non-default args: \{")
_ARGS_SPECULATIVE = re.compile(r"'speculative_config': \{([^{}]*)\}")
_ARGS_MODEL = re.compile(r"'model': '([^']*)'")
_ARGS_METHOD = re.compile(r"'method': '([^']*)'")
_ARGS_TP = re.compile(r"'tensor_parallel_size': (\d{1,6})\b")
_ARGS_GAMMA = re.compile(r"'num_speculative_tokens': (\d{1,6})\b")
# The name the server answers to and labels its metrics with (--served-model-name; vLLM's default
# is the model): "served_model_name=Qwen/Qwen3-14B," in the start-up line, "'served_model_name':
# ['qwen']" in the non-default args, "--served-model-name qwen" in the flags (its first name).
_STARTUP_SERVED = re.compile(r"\bserved_model_name=([^,\s]+)")
_ARGS_SERVED = re.compile(r"'served_model_name': \[?'([^']*)'")
_FLAGS_SERVED = re.compile(r"--served[-_]model[-_]name[= ]([^\s'\"\\-][^\s'\"\\]*)")
# The flags of `vllm serve` (found by a cold read: the site's own --speculative-config, pasted back
# with its log line, was answered "The text does not say which drafter produced it"):
# "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --speculative-config '{"method": …}'",
# on one line or several.
_FLAGS_SPECULATIVE = re.compile(r"--speculative[-_]config[= ]'(\{[^']*\})'")
_FLAGS_TP = re.compile(r"--tensor[-_]parallel[-_]size[= ](\d{1,6})\b")
_FLAGS_MODEL = re.compile(r"\bvllm serve\s+([^\s'\"\\-][^\s'\"\\]*)")
STARTUP_LINE, SERVE_FLAGS = "vLLM's start-up line", "its vllm serve flags"


def _startup(lines: list[str], positions: int, labels: tuple[str, ...] = ()) -> tuple[dict | None, str | None]:
    """The start-up line read (``_startup_of``), and a note where the text holds those of several
    servers, or one of another server than the counters' (else None). A start-up line that serves
    another model than the scrape's model_name ``labels`` is another server's, and is not read
    (found by a cold read: one server's start-up line, pasted with another's scrape, had its
    drafter priced with the scrape's acceptance, unsaid). Of several, the last whose
    num_speculative_tokens is the metrics' ``positions`` is read, else the last (found by a cold
    read: two servers' logs pasted together were priced on the last start-up line, another
    server's than the metrics', unsaid)."""
    found = [s for i, line in enumerate(lines) if (s := _startup_of(line, lines, i))]
    if not found:
        return None, None
    label = labels[0] if labels else None
    candidates = [s for s in found if label is None or _may_serve(s, label)]
    if not candidates:
        served = list(dict.fromkeys(quoted_name(s["served_model_name"] or s["model"]) for s in found))
        return None, (f"The text's {'start-up line names' if len(served) == 1 else 'start-up lines name'} "
                      f"{' and '.join(served)}, and the counters are those of {quoted_name(label)} (their model_name "
                      f"label): not of one server, so the drafter and GPUs {'it names were' if len(served) == 1 else 'they name were'} "
                      "left out; give one server's lines and scrapes.")
    matching = [s for s in candidates if positions and s["num_speculative_tokens"] == positions]
    read = matching[-1] if matching else candidates[-1]
    servers: list[dict] = []
    for s in found:
        if not any(_one_server(s, t) for t in servers):
            servers.append(s)
    if len(servers) < 2:
        return read, None
    kinds = {s["said_in"] for s in found}
    where = ("start-up lines" if kinds == {STARTUP_LINE} else "vllm serve flags" if kinds == {SERVE_FLAGS}
             else "start-up lines and vllm serve flags")
    named = [_server_named(s) for s in servers]
    listed = ", ".join(named[:-1]) + " and " + named[-1]
    nth = next(i for i, s in enumerate(servers) if _one_server(read, s))
    ordinal = ("first", "second", "third")[nth] if nth < 3 else f"number {nth + 1:,}"
    which = (f"whose model is the counters' ({quoted_name(label)})"
             if label and len(candidates) < len(found) and len({_server_named(s) for s in candidates}) == 1 else
             f"whose γ is the metrics' {positions:,} draft positions" if len({_server_named(s) for s in matching}) == 1
             else "the last in the text, as the metrics do not say which server they came from")
    return read, (f"The text holds the {where} of {len(servers):,} servers, {listed}: the drafter and target read "
                  f"are the {ordinal}'s, {which}; give one server's lines.")


def _may_serve(startup: dict, label: str) -> bool:
    """Whether a start-up line may be of the server whose metrics carry the model_name ``label``:
    it serves that name (its --served-model-name, else its model, also without the organisation,
    as a served name may be given), or names neither."""
    served = startup["served_model_name"] or startup["model"]
    if served is None:
        return True
    return served == label or (not startup["served_model_name"]
                               and served.rsplit("/", 1)[-1].lower() == label.rsplit("/", 1)[-1].lower())


def _one_server(a: dict, b: dict) -> bool:
    """Whether two start-up lines may be one server's: nothing both name differs (a method vLLM
    takes by the model's name is not named)."""
    for key in ("model", "served_model_name", "draft_model", "tensor_parallel_size", "num_speculative_tokens"):
        if a[key] is not None and b[key] is not None and a[key] != b[key]:
            return False
    return not (a["method_given"] and b["method_given"] and a["method"] != b["method"])


def _server_named(startup: dict) -> str:
    """A server as a note names it: its model, method and γ, where its start-up line names them."""
    parts = [f"method '{startup['method']}'" if startup["method"] else None,
             f"γ = {startup['num_speculative_tokens']:,}" if startup["num_speculative_tokens"] else None]
    said = ", ".join(p for p in parts if p)
    model = quoted_name(startup["model"]) if startup["model"] else "a model not named"
    return f"{model} ({said})" if said else model


def _startup_of(line: str, lines: list[str], index: int) -> dict | None:
    """What ``line``, a vLLM start-up line ("Initializing … with config:", also cut
    before it, or "non-default args: {…}") or `vllm serve` flags, names: {"model": the served model,
    "served_model_name": the name it serves it by (--served-model-name), "method":
    the speculative method, "draft_model": its draft model, "tensor_parallel_size": its GPUs (an
    int), "num_speculative_tokens": its γ (an int), "said_in": where (STARTUP_LINE, or SERVE_FLAGS
    for `vllm serve` flags: ``_serve_flags``), "method_given": False where the method is the one
    vLLM takes for a config without one (``_method_of``)} (None for what it does not name); None
    where it is no start-up line. ``lines``, ``index``: the text, and where ``line`` is in it (the
    flags' `vllm serve` command). Found by cold reads: a log that names its EAGLE-3 head and its
    Llama target there was answered "The text does not say which drafter produced it"; one on 2
    GPUs was priced on 4, unsaid."""
    speculative = _STARTUP_SPECULATIVE.search(line)
    served = _STARTUP_MODEL.search(line) or (speculative and _STARTUP_ANY_MODEL.search(line[:speculative.start()]))
    if served:
        gpus, name = _STARTUP_TP.search(line), _STARTUP_SERVED.search(line)
        gamma = _STARTUP_GAMMA.search(line[speculative.start():]) if speculative else None
        return {"model": served[1], "served_model_name": name[1] if name else None,
                "method": speculative[1] if speculative else None, "method_given": True,
                "draft_model": (speculative[2] or None) if speculative else None,
                "tensor_parallel_size": int(gpus[1]) if gpus else None,
                "num_speculative_tokens": int(gamma[1]) if gamma else None, "said_in": STARTUP_LINE}
    if _ARGS_LINE.search(line):
        config = _ARGS_SPECULATIVE.search(line)
        rest = line[:config.start()] + line[config.end():] if config else line
        served, gpus, name = _ARGS_MODEL.search(rest), _ARGS_TP.search(rest), _ARGS_SERVED.search(rest)
        method, draft, gamma = ((_ARGS_METHOD.search(config[1]), _ARGS_MODEL.search(config[1]),
                                 _ARGS_GAMMA.search(config[1])) if config else (None, None, None))
        if served:
            draft_model = draft[1] if draft else None
            return {"model": served[1], "served_model_name": name[1] if name else None,
                    "method": method[1] if method else _method_of(draft_model),
                    "method_given": bool(method) or not draft_model,
                    "draft_model": draft_model,
                    "tensor_parallel_size": int(gpus[1]) if gpus else None,
                    "num_speculative_tokens": int(gamma[1]) if gamma else None, "said_in": STARTUP_LINE}
    return _serve_flags(line, lines, index)


def _serve_flags(line: str, lines: list[str], index: int) -> dict | None:
    """What ``line`` (``lines[index]``)'s --speculative-config names (a JSON object, as `vllm serve`
    takes it and the site writes it), with the served model and GPUs its `vllm serve` command's
    flags give (from the last "vllm serve" at or before it to the next; the whole text where none
    is before it), as ``_startup_of`` returns them; None where it has none, or one that is not such
    an object."""
    config = _FLAGS_SPECULATIVE.search(line)
    if not config:
        return None
    try:  # (JSON as JavaScript reads it, parse.js: no NaN or Infinity)
        spec = json.loads(config[1], parse_constant=_not_json)
    except ValueError:
        return None
    if not isinstance(spec, dict):
        return None
    method, draft, gamma = spec.get("method"), spec.get("model"), spec.get("num_speculative_tokens")
    draft = draft if isinstance(draft, str) and draft else None
    if not isinstance(method, str) and (method is not None or not draft):
        return None
    # a count as JavaScript has it: 3.0 is 3
    gamma = (int(gamma) if isinstance(gamma, (int, float)) and not isinstance(gamma, bool) and math.isfinite(gamma)
             and float(gamma).is_integer() and 0 < gamma < 10**6 else None)
    commands = [i for i, ln in enumerate(lines) if "vllm serve" in ln]
    start = max((i for i in commands if i <= index), default=None)
    command = (lines[start:next((i for i in commands if i > index), len(lines))] if start is not None else lines)
    served = next((m for m in map(_FLAGS_MODEL.search, command) if m), None)
    gpus = next((m for m in map(_FLAGS_TP.search, command) if m), None)
    name = next((m for m in map(_FLAGS_SERVED.search, command) if m), None)
    return {"model": served[1] if served else None, "served_model_name": name[1] if name else None,
            "method": method if method is not None else _method_of(draft),
            "method_given": method is not None, "draft_model": draft,
            "tensor_parallel_size": int(gpus[1]) if gpus else None,
            "num_speculative_tokens": gamma, "said_in": SERVE_FLAGS}


def _method_of(draft_model: str | None) -> str | None:
    """The method vLLM takes for a speculative config that names a draft model and no method, by
    the model's id (vllm/config/speculative.py SpeculativeConfig.__post_init__: an EAGLE-3 or EAGLE
    head by its name, else a draft model; the kinds it tells by the checkpoint's config, Medusa and
    MTP, cannot be told from a name). Found by a cold read: such a config, which the essay says vLLM
    takes, was answered "The text does not say which drafter produced it". None without a model."""
    if not draft_model:
        return None
    name = draft_model.lower()
    return "eagle3" if "eagle3" in name else "eagle" if "eagle-" in name else "draft_model"


def _not_json(name: str):
    raise ValueError(f"{name} is not JSON")


def _startup_gamma(told: int, positions: int, said_in: str, of_several: bool = False) -> str:
    """The note for a start-up line (or `vllm serve` flags) whose γ is not the metrics'
    (parse.js startupGamma); ``of_several``: the one read of several servers'."""
    read = " read" if of_several else ""
    subject = f"The start-up line{read} sets" if said_in == STARTUP_LINE else f"The vllm serve flags{read} set"
    return (f"{subject} num_speculative_tokens = {told:,}, and the metrics have {positions:,} draft "
            f"positions: they are not of one run, so the drafter and target {said_in} names may not be "
            f"the metrics'; the fit reads γ = {positions:,} from the metrics.")


def _check_limits(reading: Reading) -> None:
    """A reading the model cannot price (more draft positions or running requests than its γ and
    batch allow) is refused, as parse.js refuses it: the field as the reading names it, counts
    with separators (found by a cold read: "metrics: the text has 99999 running requests; allowed:
    at most 65536" on the page and the command line)."""
    if reading.gamma is not None and reading.gamma > MAX_DRAFT_POSITIONS:
        raise ImpossibleMetricsError("draft positions", f"{grouped(reading.gamma)} in the text",
                                     f"at most {grouped(MAX_DRAFT_POSITIONS)}")
    if reading.running_requests is not None and reading.running_requests > MAX_RUNNING_REQUESTS:
        raise ImpossibleMetricsError("running requests", f"{grouped(reading.running_requests)} in the text",
                                     f"at most {grouped(MAX_RUNNING_REQUESTS)}")


def grouped(x: float) -> str:
    """A whole count with thousands separators in the shortest digits that are the float (a
    text's "300000000000000000000000" as written, not the double's 299,999,999,999,999,991,611,392:
    found by a cold read, page and CLI wrote one huge count with two tails), past 2⁵³ to the 15
    significant digits a double holds (3e23 / 3 is 100,000,000,000,000,000,000,000, not its
    double's …010,000,000: found by a cold read too), as parse.js grouped; else as _shown."""
    if float(x).is_integer() and abs(x) < 1e30:
        digits = repr(float(x)) if abs(x) <= 2**53 else f"{float(x):.15g}"
        return f"{int(Decimal(digits)):,}"
    return _shown(float(x))


def _v0_left_out(n: int) -> str:
    """The note for V0 'Speculative metrics:' lines in a text read by its V1 lines (parse.js v0LeftOut)."""
    return (f"{n} 'Speculative metrics:' line{'s' if n != 1 else ''} of vLLM's V0 engine left out: the V1 "
            "'SpecDecoding metrics:' lines were read; give one engine's lines.")


_PER_POS = "spec_decode_num_accepted_tokens_per_pos"


def _llama_left_out(n: int, engine: str) -> str:
    """The note for llama-server lines in a text read by its vLLM lines (parse.js llamaLeftOut)."""
    return (f"{n:,} llama-server line{'s' if n != 1 else ''} left out: the vLLM {engine} lines were read; give one "
            "server's lines.")


def _cut_scrape(lines: list[str]) -> str | None:
    """How the text's last line ends where it is one of the scrape's samples cut short (a name of
    ours without a readable value: found by a cold read, a scrape cut inside its last per-position
    sample was refused for numbers that cannot be); None else."""
    last = _last_line(lines)
    name = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", last)
    if name and _metric(name.group(0)) and not _SAMPLE.match(last):
        return last[-30:]
    return None


def _last_line(lines: list[str]) -> str:
    """The text's last line that is not blank, stripped ("" where none is)."""
    return next((ln.strip() for ln in reversed(lines) if ln.strip()), "")


def _ends_at_position(lines: list[str]) -> str | None:
    """The position label of the text's last line where it is a per-position sample, else None."""
    m = _SAMPLE.match(_last_line(lines))
    named = _metric(m.group(1)) if m else None
    if not (named and named[1] == _PER_POS):
        return None
    return dict(_LABEL.findall(m.group(2) or "")).get("position")


def _logs_left_out(n: int) -> str:
    """The note for log lines in a text read by its scrape (parse.js logsLeftOut)."""
    return (f"{n:,} log line{'s' if n != 1 else ''} with speculative-decoding metrics left out: the Prometheus "
            "counters were read, exact counts over their window; give one server's scrapes or its log lines.")


def _read_text(lines: list[str]) -> Reading:
    """The Reading of the first format found in ``lines`` (see parse_metrics), without the load of
    the engine-stats lines."""
    cut = _cut_scrape(lines)
    if cut:
        raise MetricsInputError(f"the scrape is cut off before its end (its last line ends '…{cut}'); give whole "
                                "scrapes", recognised=True)
    prom = [ln for ln in lines if ("spec_decode_" in ln or "num_requests_running" in ln)
            and not ln.lstrip().startswith("#") and _SAMPLE.match(ln) and _metric(_SAMPLE.match(ln).group(1))]
    if (any(ln.lstrip().startswith("#") and _PER_POS in ln for ln in lines) and prom
            and not any(_PER_POS in ln for ln in prom)):
        # (found by a cold read: a scrape cut after the counter's "# TYPE" line was told its vLLM
        # was older than 0.8.5, which has no such counter)
        raise MetricsInputError(f"the scrape declares {_PER_POS} but holds none of its samples: it is cut off "
                                "before its end; give whole scrapes", recognised=True)
    scraped = _read_prometheus(prom, _ends_at_position(lines)) if prom else None
    if scraped and scraped.num_drafts:
        logged = sum(1 for ln in lines if "SpecDecoding metrics:" in ln or "Speculative metrics:" in ln
                     or _LLAMA.search(ln))
        if logged:
            # first: the last note is the one a failed fit quotes (found by a cold read: a log line
            # pasted with a scrape left out unsaid)
            return replace(scraped, notes=(_logs_left_out(logged),) + scraped.notes)
        return scraped
    llama_lines = sum(1 for ln in lines if _LLAMA.search(ln))
    v1 = [x for x in map(_v1_line, (ln for ln in lines if "SpecDecoding metrics:" in ln)) if x]
    if v1:
        reading = _pool_v1(v1)
        v0 = sum(1 for ln in lines if "Speculative metrics:" in ln)
        # first: the last note is the one a failed fit quotes (found by cold reads: a V0 line, and
        # llama-server's, pasted with a V1 line left out unsaid)
        left_out = ((_v0_left_out(v0),) if v0 else ()) + ((_llama_left_out(llama_lines, "V1"),) if llama_lines else ())
        return replace(reading, notes=left_out + reading.notes)
    v0 = [x for x in map(_v0_line, (ln for ln in lines if "Speculative metrics:" in ln)) if x]
    if v0:
        reading = _read_v0(v0)
        return replace(reading, notes=(_llama_left_out(llama_lines, "V0"),) + reading.notes) if llama_lines else reading
    llama = [ln for ln in lines if "draft acceptance" in ln or "acc per pos" in ln]
    if any(_LLAMA.search(ln) for ln in llama):
        return _read_llama(llama)
    if scraped:
        return scraped
    raise MetricsInputError("nothing in the text is a speculative-decoding log line or metric")
