"""Hostile and broken URLs: every query opens a valid state, says in a short note what it
changed, and nothing from the URL ever reaches the page as markup.

Over 200 generated queries go through state.js's parser in one page (the module, against the
real manifest) and are checked against an independent Python oracle; a representative subset
is then loaded as real pages (a fresh navigation each, one browser page for all) and checked
for the note, the state shown, and the absence of injected markup, dialogs, CSP violations
and console errors.
"""
from __future__ import annotations

import math
import re
from urllib.parse import parse_qsl, quote

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from specmodel import FIELDS

from .site_helpers import CSP_WATCH, KEYS, manifest, names_by_key, query_of, state_of_controls, wait_rendered

pytestmark = pytest.mark.browser

GEOMETRIC = {"batch", "context"}  # powers of two: snapped in log space (state.js isGeometric)
CANARY = "__pwned"  # every script payload sets window.__pwned; the page must never run one

# Values that try to become markup or script, or to look like something else.
MARKUP = [
    f"<script>window.{CANARY}=1</script>",
    f'"><script>window.{CANARY}=1</script>',
    f"'><img src=x onerror=window.{CANARY}=1>",
    f"<svg onload=window.{CANARY}=1>",
    f"<svg><script>window.{CANARY}=1</script></svg>",
    f'<iframe src="javascript:window.{CANARY}=1">',
    f"<details open ontoggle=window.{CANARY}=1>",
    f"</p><p onclick=window.{CANARY}=1>x",
    f'ngram" autofocus onfocus="window.{CANARY}=1',
    f"javascript:window.{CANARY}=1",
    "JaVaScRiPt:alert(1)",
    f"data:text/html,<script>window.{CANARY}=1</script>",
    f"&lt;script&gt;window.{CANARY}=1&lt;/script&gt;",
    f"&#60;img src=x onerror=window.{CANARY}=1&#62;",
    "&amp;&quot;&#x3C;",
    "<b>64</b>",
    "<!--",
    "]]>",
    "{{7*7}}${7*7}`+alert(1)+`",
    "alert(1)",
]
# Numbers a URL might carry, valid or not.
NUMBERS = [
    "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "1e3", "1E3", "6.4e1", "0x10",
    "1_000", "1,024", "0b101", "0o17", "9" * 400, "-5", "-0", "0", "5000", "1e9", "1e10", "64.",
    ".5", "+64", " 64 ", "64abc", "64 64", "0.77", "0.150", "7.0", "48", "40", "3.5", "0.125",
    "1e300", "-1e-3", "1024.0000000001",
]
# Unicode that looks like a number or a name, or hides itself.
UNICODE = [
    "\u202e46",  # RTL override
    "\u202e<script>",
    "\u200b64",  # zero-width space
    "64\u200d",
    "\u2066qwen3\u2069",
    "\uff16\uff14",  # full-width 64
    "\u0666\u0664",  # Arabic-Indic 64
    "ngr\u0430m",  # Cyrillic а
    "qwen3-0.6\u042c",
    "\u212a",  # Kelvin sign
    "e\u0301" * 30,  # combining accents
    "\U0001f4a5" * 30,  # astral characters, cut by code point
    "64\u2028",
    "\ufeff64",
]
# Bytes and percent-encodings, written into the query as they are (already encoded).
ENCODED = [
    "64%00", "%00", "%3Cscript%3E", "%253Cscript%253E", "%25", "%", "%zz", "%C0%BC", "%FF%FE",
    "%E0%A4%A", "6%34", "%36%34", "ngram%26batch%3D64", "64%23x", "%2B64", "a+b", "%uFF16",
    "%E2%80%AE46",
]
TEN_KB = "x" * 10240


def _encode(value: str) -> str:
    return quote(value, safe="")


# Every kind of trouble at least once in the real page.
PAGE_MUST = [
    f"drafter=<script>window.{CANARY}=1</script>",
    f"batch={_encode(_encode(MARKUP[2]))}",  # double-encoded
    f"alpha={_encode(TEN_KB + '<script>')}",
    f"batch={_encode(chr(0x202E) + '46')}",  # RTL override
    f"drafter={_encode(chr(0x202E) + '46')}&gamma={_encode(chr(0x202E) + '46')}",
    f"gamma={_encode(chr(0xFF16) + chr(0xFF14))}",  # full-width digits
    f"drafter={_encode('ngr' + chr(0x430) + 'm')}&gamma={_encode('ngr' + chr(0x430) + 'm')}",  # homoglyph
    "workload=64%00", "batch", "batch&gamma", "batch=", "=64", "batch=2&batch=8",
    "&".join(f"batch={n}" for n in range(300)), "%62atch=64", "batch=1e3", "batch=0x10", "batch=1_000",
    "alpha=NaN", "gamma=-Infinity", "context=-5", "batch=" + "9" * 40, "Batch=64&gamma=3", "gama=3&utm_source=x",
    # keys as vLLM spells them: read, said, and no correction in the bar (found by a cold read)
    "num_speculative_tokens=7&method=eagle3",
]


def hostile_queries() -> list[str]:
    """At least 200 queries (without "?"), every kind of trouble on every kind of key."""
    queries = []
    for i, value in enumerate(MARKUP):
        for key in (KEYS[i % len(KEYS)], "drafter", "batch"):
            queries.append(f"{key}={_encode(value)}")
        queries.append(f"{KEYS[(i + 3) % len(KEYS)]}={_encode(_encode(value))}")  # double-encoded
    queries.append(f"drafter=<script>window.{CANARY}=1</script>")  # not encoded at all
    for i, value in enumerate(NUMBERS):
        for key in ("batch", "context", "gamma", "alpha"):
            if (i + len(key)) % 2 == 0 or key == "batch":
                queries.append(f"{key}={_encode(value)}")
    for i, value in enumerate(UNICODE):
        queries.append(f"{KEYS[i % len(KEYS)]}={_encode(value)}")
        queries.append(f"drafter={_encode(value)}&gamma={_encode(value)}")
    for i, value in enumerate(ENCODED):
        queries.append(f"{KEYS[i % len(KEYS)]}={value}")
    queries += [
        f"batch={TEN_KB}", f"drafter={TEN_KB}", f"alpha={_encode(TEN_KB + '<script>')}",
        f"{TEN_KB}=1", "&".join(f"batch={n}" for n in range(300)),
        # unknown and repeated keys, keys without '=', empty values
        "foo=1&utm_source=x", "utm_source=x&fbclid=y&gclid=z&batch=64", "q=engine&h=log", "gama=3&batch=64",
        "__proto__=1&constructor=x&toString=1", f"{_encode('<script>')}=1",
        "onload=x&batch=64", "BATCH=64", "Batch=64&gamma=3", "BATCH=64&batch=2", "cost-model=whole-pass",
        "num_speculative_tokens=6&tensor_parallel_size=2", "cost_model=per-kernel&cost-model=whole-pass", "%62atch=64", "%2562atch=64",
        "b%D0%B0tch=64", "%20batch=64", "batch=2&batch=8", "gamma=3&gamma=3&gamma=999", "batch=64&batch=abc",
        "drafter=ngram&drafter=nope", "tp=2&tp=x", "alpha=0.5&alpha=0.52",
        "target=llama-3.1-8b-instruct&drafter=eagle3&drafter=qwen3-4b", "drafter=eagle3&drafter=llama-3.2-1b",
        "drafter=ngram&drafter=ngram", "batch", "batch&gamma", "batch=", "=64", "&&&", "=", "&=&",
        "batch==64", "batch=64=64", "batch=64;gamma=3", "alpha=0.5&alpha", "?batch=64",
        "batch=64&context=8192&drafter=qwen3-1.7b&gamma=7&alpha=0.5&acceptance=same&workload=steady-state",
        "workload=STEADY-STATE&acceptance=Same&drafter=NGRAM", "drafter=%20ngram%20",
    ]
    # each setting by its command-line option's name (cost-model for cost) and by its field's
    queries += [f"{name}=1" for f in FIELDS.values() if f.grid for name in (f.option.lstrip("-"), f.name) if name != f.key]
    # and by vLLM's name for it (num_speculative_tokens for gamma)
    queries += [f"{f.vllm_name}=1" for f in FIELDS.values() if f.grid and f.vllm_name]
    queries += ["cost=ideal-roofline", "cost=Ideal%20Roofline", "cost=per-kernel", "cost=roofline", "cost=fastest", "gpu=H100%20SXM",
                "drafter=EAGLE-3%20head", "workload=steady_state", "acceptance=falling%20with%20position", "tp=abc",
                "context=abc", "batch=abc", "num_speculative_tokens=5&gamma=2", "gamma=2&num_speculative_tokens=abc",
                "gamma=2&num_speculative_tokens=6", "batch=1,024", "context=32,768",
                "batch=1,0244", "batch=,024", "alpha=0,75", "batch=12,34,567", "batch=-1,024", "batch=1,024.5"]
    # models by their Hugging Face ids, as texts and vLLM's flags name them (found by a cold read)
    queries += ["drafter=Qwen/Qwen3-1.7B", "target=Qwen/Qwen3-8B", "target=meta-llama/Llama-3.3-70B-Instruct",
                "target=meta-llama/Meta-Llama-3.1-8B-Instruct&drafter=eagle3",
                "method=draft_model", "target=llama-3.1-8b-instruct&method=DRAFT_MODEL", "drafter=draft_model&drafter=eagle3",
                "drafter=n-gram", "drafter=EAGLE-3", "drafter=N_GRAM&drafter=foo", "drafter=yuhuili/EAGLE3-LLaMA3.3-Instruct-70B",
                "target=llama-3.1-8b-instruct&drafter=yuhuili/EAGLE3-LLaMA3.3-Instruct-70B", "drafter=someone/ngram-lookup",
                "drafter=meta-llama/Llama-3.2-1B&target=llama-3.1-8b-instruct", "target=Qwen/Qwen3-8B-FP8",
                "target=Qwen/Qwen3-32B-FP8", "target=Qwen/Qwen3-30B-A3B-Instruct-2507&drafter=eagle3", "drafter=Qwen/Qwen3-8B",
                "drafter=meta-llama/Llama-3.2-1B", "target=Qwen/Qwen3", "drafter=Qwen/Qwen3-4B-Instruct-2507",
                "target=AngelSlim/Qwen3-8B_eagle3", "drafter=Qwen/Qwen3-8B-FP8", "target=Qwen/Qwen3-4B-Instruct-2507",
                "target=meta-llama/Llama-3.1-8B", "method=eagle3", "num_speculative_tokens=7&cost-model=whole-pass",
                "gpu=A100", "gpu=a100-80gb", "gpu=H100", "gpu=a100-pcie", "cost=ideal", "workload=steady", "target=qwen3-32b-awq",
                "drafter=qwen3-1.7b-fp8", "gpu=x", "drafter=ab", "target=llama", "gpu=sxm",
                "target=meta-llama/Llama-3.1-8B-Instruct&drafter=meta-llama/Llama-3.2-1B-Instruct",
                "drafter=yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "target=mistralai/Mistral-7B-v0.1",
                # an EAGLE-3 head by its id, the link's target's or another's, and vLLM's keys
                "drafter=AngelSlim/Qwen3-8B_eagle3", "drafter=AngelSlim/Qwen3-32B_eagle3&target=qwen3-8b",
                "target=llama-3.1-8b-instruct&drafter=yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                "drafter=eagle3&drafter=AngelSlim/Qwen3-32B_eagle3", "model=meta-llama/Llama-3.1-8B-Instruct&method=ngram",
                "method=draft_model", "model=qwen3-14b&target=qwen3-32b",
                "target=meta-llama/Llama-3.1-8B-Instruct&drafter=meta-llama/Llama-3.2-1B",
                "target=llama-3.3-70b-instruct&drafter=abc"]
    queries += PAGE_MUST
    return list(dict.fromkeys(queries))  # without repeats, in order


QUERIES = hostile_queries()

# JavaScript's String.prototype.trim() whitespace (Python's str.strip() differs: \ufeff, \x1c…).
JS_SPACE = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
# thousands grouped as the page writes them (1,024)
GROUPED = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?", re.ASCII)


def _number(text: str) -> float:
    """A number written out (thousands grouped or not) as a float, else NaN."""
    text = text.replace(",", "") if GROUPED.fullmatch(text) else text
    return float(text) if NUMBER.fullmatch(text) else math.nan


def _snap(axis: list, x: float, geometric: bool):
    distance = (lambda v: abs(math.log(v) - math.log(x))) if geometric else (lambda v: abs(v - x))
    best = axis[0]
    for v in axis:
        if distance(v) < distance(best) - 1e-9:
            best = v
    return best


def _loose(text: str) -> str:
    """A name as the rules compare it with a control's label: lower case, letters and digits only."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _named(name: str, axis: list, text: str) -> list:
    """The axis values a name in a URL gives: its own (any case), else the one whose label it writes
    (ideal roofline, ideal-roofline, H100 SXM), lettering aside, else a target's or draft model's
    Hugging Face id (Qwen/Qwen3-1.7B)."""
    labels = manifest()["labels"].get(name, {})
    # its own, in any case, or written loosely (n-gram, EAGLE-3: as the page writes the drafters)
    own = [v for v in axis if v.lower() == text.lower()] or [v for v in axis if _loose(text) and _loose(v) == _loose(text)]
    # or its Hugging Face id, its model part in any case (Qwen/Qwen3-1.7B: how texts and vLLM name it)
    by_id = manifest()["deployment_names"].get(name, {}).get(text.strip().lower().rsplit("/", 1)[-1])
    # or, for the drafter, an EAGLE-3 head's id (AngelSlim/Qwen3-8B_eagle3)
    head = _head_targets(text)[0] if name == "drafter" and by_id is None else None
    return (own or [v for v in axis if _loose(text) and _loose(labels.get(v, v)) == _loose(text)]
            or [v for v in axis if v == by_id] or [v for v in axis if v == head])


def _head_targets(text: str) -> tuple[str | None, list[str]]:
    """The drafter whose checkpoint a Hugging Face id names (its model part, any case) and the
    targets it drafts for, from the manifest's deployment_names["checkpoint"]; (None, [])."""
    model = text.strip().lower().rsplit("/", 1)[-1]
    for drafter, by_target in manifest()["deployment_names"]["checkpoint"].items():
        targets = [t for t, hf_id in by_target.items() if hf_id.lower().rsplit("/", 1)[-1] == model]
        if targets:
            return drafter, targets
    return None, []


def _usable(name: str, axis: list, text: str, offered: list | None) -> bool:
    """Whether the simulation can use a value: a GPU count, a name on the axis (any case) that the
    configuration read so far offers (`offered`, None where it does not restrict the field), a
    number written out (on the grid or not, in range or not)."""
    if name == "tp":
        return re.fullmatch(r"[1-9][0-9]{0,2}", text, re.ASCII) is not None
    if isinstance(axis[0], str):
        return any(offered is None or v in offered
                   for v in _named(name, axis, text) + _of_kind(name, text, offered) + _kind_in_id(name, text, offered)
                   + _nearest(name, text, offered) + _by_words(name, text, offered))
    return not math.isnan(_number(text))


def _kind_in_id(name: str, text: str, offered: list | None) -> list:
    """For an id the site lacks (owner/name) that holds the name of a kind the site has one
    drafter of (yuhuili/EAGLE3-LLaMA3.3-Instruct-70B: eagle3): that drafter, where the
    configuration offers it; else []."""
    kinds = manifest()["deployment_names"]["kind"]
    if name != "drafter" or not re.fullmatch(r"[\w.-]+/[\w.-]+", text, re.ASCII) or _named(name, manifest()["axes"][name], text):
        return []
    single = [k for k in set(kinds.values()) if list(kinds.values()).count(k) == 1 and _loose(k) in _loose(text)]
    return [v for v in (offered or manifest()["axes"][name]) if single and kinds[v] == single[0]]


def _nearest(name: str, text: str, offered: list | None) -> list:
    """For a model name the site lacks (with its owner or without), nothing else reading it: the one
    model of the field whose name it is with more words or fewer (Qwen/Qwen3-32B-FP8 → qwen3-32b),
    where the configuration offers it; else []."""
    by_name = manifest()["deployment_names"].get(name)
    if (by_name is None or _named(name, manifest()["axes"][name], text)
            or _of_kind(name, text, offered) or _kind_in_id(name, text, offered)):
        return []
    part = text.lower().rsplit("/", 1)[-1]
    kinds = set(manifest()["deployment_names"]["kind"].values())
    keys = {key for known, key in by_name.items()
            if known != part and known not in kinds and any(part.startswith(known + sep) or known.startswith(part + sep) for sep in "-.")}
    return [k for k in keys if offered is None or k in offered] if len(keys) == 1 else []


def _by_words(name: str, text: str, offered: list | None) -> list:
    """Nothing else reading a name: the one value (of those the configuration offers) whose key
    or label holds every word of it, lettering aside (A100 → a100-sxm, "A100 SXM 80 GB"); a name
    of three letters and digits at least; else []."""
    axis = manifest()["axes"][name]
    if (not isinstance(axis[0], str) or len(_loose(text)) < 3 or _named(name, axis, text) or _of_kind(name, text, offered)
            or _kind_in_id(name, text, offered) or _nearest(name, text, offered)):
        return []
    words = [w for w in re.split(r"[^\w]+|_", text.lower()) if w]
    labels = manifest()["labels"].get(name, {})
    found = [v for v in (offered or axis) if all(w in _loose(v) or w in _loose(labels.get(v, "")) for w in words)]
    return found if len(found) == 1 else []


def _of_kind(name: str, text: str, offered: list | None) -> list:
    """The drafters of the kind vLLM's method ``text`` names (method=draft_model) that the
    configuration offers, in its order; [] where ``text`` is no kind."""
    kinds = manifest()["deployment_names"]["kind"]
    values = [v for v in (offered or manifest()["axes"][name]) if name == "drafter" and kinds[v] == text.lower()]
    return values


def expected(query: str, corrections_only: bool = False) -> tuple[dict, int]:
    """The state and the number of notes the rules give for `query`: an oracle written from the
    rules (README, "Links that keep working"), not from state.js's code. Numbers are snapped to the grid and clamped to its ends;
    what is not a number written out or a name gives the default; of a repeated key's values the
    last one the simulation can use wins (a name the GPU and target read so far offer), else the last, and the reader is told; keys that are not settings are ignored,
    with one note for all of them unless another tool adds them to links (FOREIGN).
    `corrections_only`: leave out the notes that say what a chosen GPU or target filled in (a
    field the query did not set): they correct nothing, and the bar does not say "corrected"."""
    m = manifest()
    state, notes = dict(m["defaults"]), 0
    pairs = parse_qsl(query, keep_blank_values=True)
    # a key naming a setting loosely (its field name, command-line option or vLLM name, any case,
    # "-" or "_") is read as it where the query does not give the setting's own key, with a note
    loose = lambda k: k.strip(JS_SPACE).lower().replace("-", "").replace("_", "")  # noqa: E731
    meant = {loose(n): s["key"] for s in m["state"] for n in (s["key"], s["name"], *s.get("aliases", []))}
    # (beside the setting's own key too: one more value of the setting, the last usable one wins)
    aliased = {k for k, _ in pairs if k not in KEYS and not FOREIGN.fullmatch(k) and meant.get(loose(k)) is not None}
    notes += 0 if corrections_only else len(aliased)  # how a key was read: no correction
    notes += any(k not in KEYS and not FOREIGN.fullmatch(k) and k not in aliased for k, _ in pairs)
    pairs = [(meant[loose(k)] if k in aliased else k, v) for k, v in pairs]
    names = names_by_key()
    asked = set()  # fields the query set without a note of their own
    for key in KEYS:
        raws = [v for k, v in pairs if k == key]
        if not raws:
            continue
        notes += len(raws) > 1
        name = names[key]
        axis = m["axes"][name]
        # of repeated values, the last one the simulation can use, else the last
        config = next((c for c in m["configurations"] if (c["gpu"], c["target"]) == (state["gpu"], state["target"])), None)
        offered = config["axes"].get(name) if config else None
        text = next((r for r in reversed(raws) if _usable(name, axis, r.strip(JS_SPACE), offered)), raws[-1]).strip(JS_SPACE)
        if name == "tp" and re.fullmatch(r"[1-9][0-9]{0,2}", text, re.ASCII):
            state[name] = int(text)  # a number of GPUs: the configuration decides, below
            asked.add(name)
            continue
        if isinstance(axis[0], str):
            match = _named(name, axis, text)
            by_head = name == "drafter" and not manifest()["deployment_names"]["drafter"].get(
                text.strip().lower().rsplit("/", 1)[-1]) and _head_targets(text)[0] == (match or [None])[0]
            if not match and _of_kind(name, text, offered):
                # vLLM's method for a kind: the first the target takes, said so where it takes several
                state[name] = _of_kind(name, text, offered)[0]
                notes += len(_of_kind(name, text, offered)) > 1
                asked.add(name)
            elif not match and _nearest(name, text, offered):
                # an id the site lacks, near one model it has: that one, said so
                state[name] = _nearest(name, text, offered)[0]
                notes += 1
                asked.add(name)  # a value the link gives, read with a note: what it brings is said
            elif not match and _by_words(name, text, offered):
                # a name whose every word one value's key or label holds: that one, said so
                state[name] = _by_words(name, text, offered)[0]
                notes += 1
                asked.add(name)
            elif not match and _kind_in_id(name, text, offered):
                # an id the site lacks naming a kind it has one drafter of: that one, said so
                state[name] = _kind_in_id(name, text, offered)[0]
                notes += 1
                asked.add(name)
            elif match and by_head and state["target"] not in _head_targets(text)[1]:
                # a head trained for another target: the target's own head, said so
                state[name] = match[0]
                notes += 1
                asked.add(name)
            elif match:
                state[name] = match[0]
                asked.add(name)
            else:
                # refused: the default, or the first value the configuration read so far offers
                # where it does not offer the default (one note, naming the value used)
                notes += 1
                if offered is not None and m["defaults"][name] not in offered:
                    state[name] = offered[0]
            continue
        # any number written out clamps, one too large for a double (forty nines, 1e400) too
        x = _number(text)
        if math.isnan(x):
            notes += 1
            continue
        clamped = min(axis[-1], max(axis[0], x))
        value = _snap(axis, clamped, key in GEOMETRIC)
        moved = clamped != x or abs(value - x) > 1e-9 * max(1, abs(x))
        notes += moved
        asked.add(name)
        state[name] = value
    # The configuration (GPU, target) holds data for some values only: its own number of GPUs, its
    # target's drafters, and away from the default one fewer of the other fields. A value it does
    # not hold moves to the default (or its first value), with a note if the query asked for it
    # or for the GPU or target.
    config = next((c for c in m["configurations"] if (c["gpu"], c["target"]) == (state["gpu"], state["target"])), None)
    # a field the GPU or target the query chose does not offer is noted, asked for or not
    chosen = bool(asked & {"gpu", "target"}) and config is not None
    if config is None:
        notes += bool(asked & {"gpu", "target"})
        state["gpu"], state["target"] = m["defaults"]["gpu"], m["defaults"]["target"]
        config = m["configurations"][0]
    if state["tp"] != config["tp"]:
        notes += "tp" in asked
        state["tp"] = config["tp"]
    for name, values in config["axes"].items():
        if state[name] not in values:
            notes += name in asked or (chosen and not corrections_only)
            state[name] = m["defaults"][name] if m["defaults"][name] in values else values[0]
    return state, notes


# Keys a link picks up from other tools (the theme's search, campaign tags, click ids): no note.
FOREIGN = re.compile(r"q|h|ref|utm_.*|[a-z]*clid", re.IGNORECASE)


# Bidi controls, zero-width and other invisible characters must never reach a note as such.
INVISIBLE = re.compile("[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u2028\u2029]")
NOTE_LENGTH = 160


def test_a_link_naming_a_model_by_its_hugging_face_id_opens_it():
    """Found by a cold read: ?drafter=Qwen/Qwen3-1.7B opened the 0.6B draft model, and
    ?target=Qwen/Qwen3-8B was refused "…; using Qwen3-8B", the model it named. An id names its
    model (the oracle's rule, which the parser test holds the page to)."""
    assert expected("drafter=Qwen/Qwen3-1.7B") == ({**manifest()["defaults"], "drafter": "qwen3-1.7b"}, 0)
    assert expected("target=Qwen/Qwen3-8B") == (manifest()["defaults"], 0)
    state, _ = expected("target=meta-llama/Llama-3.1-8B-Instruct&drafter=meta-llama/Llama-3.2-1B-Instruct")
    assert (state["target"], state["drafter"]) == ("llama-3.1-8b-instruct", "llama-3.2-1b")
    assert expected("target=mistralai/Mistral-7B-v0.1")[1] == 1  # a model the site lacks: refused, said
    # the id a model had before its repository was renamed, as older logs and links give it (found
    # by a cold read: meta-llama/Meta-Llama-3.1-8B-Instruct refused)
    state, notes = expected("target=meta-llama/Meta-Llama-3.1-8B-Instruct&drafter=eagle3")
    assert (state["target"], state["drafter"], notes) == ("llama-3.1-8b-instruct", "eagle3", 0)
    # an EAGLE-3 head by its id (found by a cold read: refused for the 0.6B draft model); one
    # trained for another target opens the EAGLE-3 head of the link's target, said so
    assert expected("drafter=AngelSlim/Qwen3-8B_eagle3") == ({**manifest()["defaults"], "drafter": "eagle3"}, 0)
    state, notes = expected("drafter=AngelSlim/Qwen3-32B_eagle3&target=qwen3-8b")
    assert (state["target"], state["drafter"], notes) == ("qwen3-8b", "eagle3", 1)
    state, notes = expected("target=llama-3.1-8b-instruct&drafter=yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    assert (state["target"], state["drafter"], notes) == ("llama-3.1-8b-instruct", "eagle3", 0)
    # a drafter the site lacks under a Llama target: one note, naming the drafter used (found by a
    # cold read: "using Qwen3-0.6B draft model", then a note using the Llama-3.2-1B one)
    state, notes = expected("target=meta-llama/Llama-3.1-8B-Instruct&drafter=meta-llama/Llama-3.2-1B")
    assert (state["drafter"], notes) == ("llama-3.2-1b", 1)
    # vLLM's own key for the drafter's kind, said so; not "model", which names the target to
    # the engine and the drafter to its speculative config (found by a cold read): not a setting
    state, notes = expected("model=meta-llama/Llama-3.1-8B-Instruct&method=ngram")
    assert (state["target"], state["drafter"], notes) == ("qwen3-8b", "ngram", 2)
    # vLLM's method for a kind: the first drafter of it the target takes, said so where it takes
    # several (found by a cold read: method=draft_model refused)
    state, notes = expected("target=llama-3.1-8b-instruct&method=draft_model")
    assert (state["drafter"], notes) == ("llama-3.2-1b", 1)
    assert expected("drafter=draft_model") == (manifest()["defaults"], 1)
    # the drafters as the page writes them (found by a cold read: refused, a draft model priced)
    assert expected("drafter=n-gram") == ({**manifest()["defaults"], "drafter": "ngram"}, 0)
    assert expected("drafter=EAGLE-3") == ({**manifest()["defaults"], "drafter": "eagle3"}, 0)
    # an EAGLE-3 head the site lacks: the target's head, said so (found by a cold read: the
    # Llama-3.2-1B draft model, where the paste box read the same id as the EAGLE-3 head)
    state, notes = expected("target=llama-3.1-8b-instruct&drafter=yuhuili/EAGLE3-LLaMA3.3-Instruct-70B")
    assert (state["drafter"], notes) == ("eagle3", 1)
    # an id the site lacks near one model it has (a quantisation, a later release, a base
    # checkpoint): that one, said so (found by a cold read: the default target priced)
    state, notes = expected("target=Qwen/Qwen3-32B-FP8")
    assert (state["target"], notes) == ("qwen3-32b", 1)
    state, notes = expected("target=Qwen/Qwen3-30B-A3B-Instruct-2507&drafter=eagle3")
    assert (state["target"], state["drafter"], notes) == ("qwen3-30b-a3b", "eagle3", 1)
    assert expected("target=Qwen/Qwen3")[0]["target"] == "qwen3-8b"  # several are near: none


def test_a_hugging_face_id_the_site_lacks_is_quoted_whole(page, page_log):
    """Found by a cold read: "target=meta-llama/Meta-Llam… is not one of …" cut the id before the
    part that differs from the site's models. And vLLM's names a link may carry are told plainly."""
    page.goto("/404.html")
    notes = page.evaluate(
        """async (queries) => {
          const { parseQuery } = await import('/javascripts/core/url-state.js');
          const manifest = await (await fetch('/data/manifest.json')).json();
          return queries.map((q) => parseQuery(q, manifest).notes);
        }""",
        ["?target=meta-llama/Meta-Llama-3-8B-Instruct", "?drafter=lmsys/SGLang-Medusa-Llama-3.1-8B-Instruct-SpecForge",
         "?target=qwen3-14b&method=draft_model", "?model=Qwen/Qwen3-8B",
         "?target=llama-3.1-8b-instruct&drafter=yuhuili/EAGLE3-LLaMA3.3-Instruct-70B",
         "?drafter=meta-llama/Llama-3.2-1B&target=llama-3.1-8b-instruct", "?target=Qwen/Qwen3-8B-FP8",
         "?target=Qwen/Qwen3-8B&drafter=AngelSlim/Qwen3-14B_eagle3", "?drafter=Qwen/Qwen3-8B",
         "?target=AngelSlim/Qwen3-8B_eagle3", "?drafter=meta-llama/Llama-3.2-1B", "?drafter=Qwen/Qwen3-8B-FP8",
         "?target=meta-llama/Llama-3.1-8B", "?gpu=A100", "?target=qwen3-32b-awq"])
    assert notes == [
        ["target=meta-llama/Meta-Llama-3-8B-Instruct names no model the site has; using Qwen3-8B."],
        ["drafter=lmsys/SGLang-Medusa-Llama-3.1-8B-Instruct-SpecForge names no model the site has; "
         "using Qwen3-0.6B draft model."],
        # vLLM's method for a kind the site has several of (found by a cold read: refused)
        ["“method” read as drafter.", "drafter=draft_model does not say which draft model; using the "
         "Qwen3-0.6B draft model, the first the site has for Qwen3-14B."],
        # vLLM's "model" is the target's or the drafter's: which key to write (found by a cold read)
        ["“model” is not a setting: vLLM names the target by it, and the draft model in its speculative "
         "config; write target= or drafter=. Ignored."],
        # an EAGLE-3 head the site lacks: the target's own, said (found by a cold read: a draft model)
        ["drafter=yuhuili/EAGLE3-LLaMA3.3-Instruct-70B is an EAGLE-3 head the site does not have; using the one "
         "for Llama-3.1-8B-Instruct."],
        # an id the site lacks that holds the name of the model used: that model's own id said
        # (found by a cold read: "… names no model the site has; using Llama-3.2-1B draft model")
        ["drafter=meta-llama/Llama-3.2-1B names no model the site has; using the nearest model it has, Llama-3.2-1B draft "
         "model, 'meta-llama/Llama-3.2-1B-Instruct'."],
        ["target=Qwen/Qwen3-8B-FP8 names no model the site has; using the nearest model it has, Qwen3-8B, 'Qwen/Qwen3-8B'."],
        # an id quoted whole, in every note (found by a cold read: "AngelSlim/Qwen3-14B_…")
        ["drafter=AngelSlim/Qwen3-14B_eagle3 is the EAGLE-3 head for Qwen3-14B; using the one for Qwen3-8B."],
        # a target's id as the drafter (found by a cold read: "names no model the site has")
        ["drafter=Qwen/Qwen3-8B is a target the site has, not a drafter; using Qwen3-0.6B draft model."],
        # a head's id as the target; a model near one the target cannot take; near a target (found
        # by a cold read: "using the nearest, its Qwen3-8B" of the head; "names no model the site has")
        ["target=AngelSlim/Qwen3-8B_eagle3 is a drafter the site has, not a target; using Qwen3-8B."],
        ["drafter=meta-llama/Llama-3.2-1B names no model the site has; its nearest, the Llama-3.2-1B draft model, "
         "cannot draft for Qwen3-8B; using Qwen3-0.6B draft model."],
        ["drafter=Qwen/Qwen3-8B-FP8 names no drafter the site has (the nearest model it has, Qwen3-8B, is a target); "
         "using Qwen3-0.6B draft model."],
        # a target near one the site has brings its drafter, said (found by a cold read: unsaid)
        ["target=meta-llama/Llama-3.1-8B names no model the site has; using the nearest model it has, Llama-3.1-8B-Instruct, "
         "'meta-llama/Llama-3.1-8B-Instruct'.",
         "Drafter: Llama-3.2-1B draft model (the starting Qwen3-0.6B draft model cannot draft for Llama-3.1-8B-Instruct, "
         "another model family)."],
        # a GPU by its chip's name; a model's variant without its owner (found by a cold read:
        # ?gpu=A100 opened the H100; ?target=qwen3-32b-awq the default target)
        ["gpu=A100 is not a name the site uses; using the nearest, A100 SXM 80 GB."],
        ["target=qwen3-32b-awq names no model the site has; using the nearest model it has, Qwen3-32B, 'Qwen/Qwen3-32B'."]]


def test_the_parser_turns_every_hostile_query_into_a_valid_state(page, page_log):
    assert len(QUERIES) >= 200
    page.goto("/")
    results = page.evaluate(
        """async (queries) => {
          const { parseQuery, serializeQuery } = await import('/javascripts/core/url-state.js');
          const manifest = await (await fetch('/data/manifest.json')).json();
          return queries.map((q) => {
            const { state, notes } = parseQuery(q, manifest);
            return { state, notes, query: serializeQuery(state, manifest) };
          });
        }""",
        ["?" + q for q in QUERIES],  # as location.search has them
    )
    m = manifest()
    problems = []
    for query, got in zip(QUERIES, results):
        state, notes = expected(query)
        label = query[:60]
        if got["state"] != state:
            problems.append(f"{label}: state {got['state']} != {state}")
        if any(got["state"][name] not in m["axes"][name] for name in m["defaults"]):
            problems.append(f"{label}: off the grid: {got['state']}")
        if len(got["notes"]) != notes:
            problems.append(f"{label}: {len(got['notes'])} notes, expected {notes}: {got['notes']}")
        if got["query"] != query_of(state):
            problems.append(f"{label}: serialised as {got['query']}")
        for note in got["notes"]:
            if not isinstance(note, str) or not note or len(note) > NOTE_LENGTH or INVISIBLE.search(note):
                problems.append(f"{label}: bad note {note!r}")
    assert problems == [], "\n".join(problems[:20])
    # a miscased key names the setting meant; keys other tools add are not the reader's to fix
    notes = dict(zip(QUERIES, (r["notes"] for r in results)))
    # a miscased key is read as the setting it names, and said so
    assert notes["BATCH=64"] == ["“BATCH” read as batch."]
    # so is a setting written as the command line spells it (found by cold reads: ?cost-model=
    # was "not a setting", then "did you mean cost?" over the default, its value dropped)
    for f in (f for f in FIELDS.values() if f.grid):
        for name in {f.option.lstrip("-"), f.name} - {f.key}:
            assert notes[f"{name}=1"][0] == f"“{name}” read as {f.key}."
    # and vLLM's, quoted whole (found by a cold read: "“num_speculative_toke…” is not a setting")
    vllm_named = [f for f in FIELDS.values() if f.grid and f.vllm_name]
    assert {f.name for f in vllm_named} >= {"gamma", "tp"}
    for f in vllm_named:
        assert notes[f"{f.vllm_name}=1"][0] == f"“{f.vllm_name}” read as {f.key}."
    # beside the setting's own key, a loose spelling is no setting: the key wins
    # beside the setting's own key, a loose spelling is one more value of the setting, and the last
    # usable one wins, as of a repeated key (found by cold reads: "“num_speculative_tokens” (did
    # you mean gamma?) is not a setting" of a link that gave gamma as well; then gamma winning
    # where a repeated key's last value would)
    assert notes["BATCH=64&batch=2"] == ["“BATCH” read as batch.", "batch is given 2 times (as “BATCH” and batch); using the last one."]
    assert notes["num_speculative_tokens=5&gamma=2"] == [
        "“num_speculative_tokens” read as gamma.", "gamma is given 2 times (as “num_speculative_tokens” and gamma); using the last one."]
    assert notes["gamma=2&num_speculative_tokens=abc"] == [
        "“num_speculative_tokens” read as gamma.",
        "gamma is given 2 times (as gamma and “num_speculative_tokens”); using 2, the last value the simulation can use."]
    # a number grouped as the page writes it is that number (found by a cold read: ?batch=1,024
    # opened at batch 1)
    assert notes["batch=1,024"] == [] and notes["context=32,768"] == []
    # a name written as the control writes it is that name; a short list of choices is named as
    # the controls name them; the command line's kernel-by-kernel model is said to be its (found
    # by cold reads: ?cost=per-kernel, ?cost=ideal-roofline "not one of calibrated, whole-pass")
    assert notes["cost=ideal-roofline"] == notes["cost=Ideal%20Roofline"] == notes["gpu=H100%20SXM"] == []
    assert notes["cost=fastest"] == [
        "cost=fastest is not one of calibrated to vLLM (calibrated), ideal roofline (whole-pass); using calibrated to vLLM."]
    # a word of one name is that name, said (found by a cold read: ?gpu=A100 opened the H100)
    assert notes["cost=roofline"] == ["cost=roofline is not a name the site uses; using the nearest, ideal roofline."]
    assert notes["cost=per-kernel"] == ["cost=per-kernel (ideal, kernel by kernel) is priced by specmodel evaluate and drawn "
                                        "in the breakdown figure, not offered here; using calibrated to vLLM."]
    assert notes["tp=abc"] == ["tp=abc is not a number the simulation can use; Qwen3-8B on H100 SXM runs on one GPU here; using 1."]
    # a default a note falls back to is written as the controls write it (found by a cold read:
    # "using 2048" where every other note and the bar say 2,048)
    assert notes["context=abc"] == ["context=abc is not a number the simulation can use; using 2,048."]
    assert notes["batch=abc"] == ["batch=abc is not a number the simulation can use; using 1."]
    assert notes["utm_source=x&fbclid=y&gclid=z&batch=64"] == [] and notes["q=engine&h=log"] == []
    # a number too long to type by accident is still a number: it clamps, as 1e300 does
    nines = "batch=" + "9" * 40
    assert notes[nines] == ["batch=99999999999999999999… is outside 1–1,024; using 1,024."], notes[nines]
    assert notes["__proto__=1&constructor=x&toString=1"] == [
        "“__proto__”, “constructor” and 1 more are not settings of the simulation; ignored."]


def _page_subset() -> list[str]:
    """About 30 queries for full page loads: the list above, a spread of the markup payloads and
    of the queries that move the state (every query is also read by the page's own parser, in
    one call, against the oracle: test_the_parser_turns_every_hostile_query_into_a_valid_state)."""
    markup = [q for q in QUERIES if CANARY in q or "alert" in q]
    moved = [q for q in QUERIES if expected(q)[0] != manifest()["defaults"]]
    return list(dict.fromkeys(PAGE_MUST + markup[::24] + moved[::24]))


# The bar (at the top of the page, far above the simulation) says the link was corrected.
BAR_NOTE_SHOWN = """() => { const note = document.querySelector('#simulation [data-bar-note]');
  return note !== null && !note.hidden && !note.closest('[data-bar]').hidden; }"""

# Everything one load is checked for, in one call: the note, the controls, the URL, and any
# sign of markup from the URL: tags through which markup could run or load something (outside
# the charts' Vega views and data tables, drawn from the data), on* attributes or javascript: URLs anywhere, the
# canary's name in any attribute or outside a note's text, the canary itself, CSP violations.
LOAD_REPORT = """() => {
  const region = document.querySelector('#simulation [data-notes]');
  const form = document.querySelector('#simulation form');
  const tags = 'script,img,svg,iframe,frame,object,embed,link,style,meta,base,form,input,select,textarea,button,video,audio,source,math,template';
  const census = {};
  for (const el of document.querySelectorAll(tags)) {
    // the chart library's own stylesheet (vega-tooltip-style) comes when it loads
    const library = el.tagName === 'STYLE' && /^vega-/.test(el.id);
    // a chart's data table is built from the data files (its rows' buttons open their states)
    const table = el.closest('details.spec-table');
    if (!el.closest('.spec-chart__view') && !table && !library) census[el.tagName] = (census[el.tagName] || 0) + 1;
  }
  const suspicious = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      if (/^on/i.test(a.name) || /^\\s*javascript:/i.test(a.value) || a.value.includes('__pwned')) suspicious.push(`${el.tagName}[${a.name}]`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.data.includes('__pwned') && !n.parentElement.matches('[data-notes] > p')) suspicious.push(`text in ${n.parentElement.tagName}`);
  }
  return {
    notes: {
      visible: !region.hidden && region.getBoundingClientRect().height > 0,
      texts: [...region.querySelectorAll('p')].map((p) => p.textContent),
      // Only <p> elements holding text (and the page's own spans that keep a name or a value on
      // one line, holding text alone, with no attribute but their class): nothing else was built
      // from the URL.
      elements: [...region.querySelectorAll('*')].map((e) =>
        e.tagName === 'SPAN' && e.className === 'spec-nowrap' && e.attributes.length === 1 && e.childElementCount === 0
          ? 'P0' : e.tagName + (e.tagName === 'P' ? e.querySelectorAll(':scope > :not(span.spec-nowrap)').length
                                                  + [...e.children].filter((c) => c.childElementCount).length : e.childElementCount)),
    },
    controls: Object.fromEntries(['gpu','target','batch','context','drafter','gamma','alpha','acceptance','workload'].map((k) => [k, form.elements.namedItem(k).value])),
    search: location.search,
    census,
    suspicious,
    ran: '__pwned' in window,
    barNote: (""" + BAR_NOTE_SHOWN + """)(),
    csp: window.__cspViolations,
  };
}"""


def test_hostile_urls_in_the_real_page(page, page_log):
    subset = _page_subset()
    assert 28 <= len(subset) <= 40, len(subset)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.context.add_init_script(CSP_WATCH)
    page.goto("/")
    wait_rendered(page, "")
    baseline = page.evaluate(LOAD_REPORT)
    assert baseline["suspicious"] == [] and baseline["csp"] == [] and not baseline["ran"]
    parsed = page.evaluate(
        """async (queries) => {
          const { parseQuery } = await import('/javascripts/core/url-state.js');
          const manifest = await (await fetch('/data/manifest.json')).json();
          return queries.map((q) => parseQuery(q, manifest).notes);
        }""",
        ["?" + q for q in subset],
    )
    problems = []
    for query, notes in zip(subset, parsed):
        state, count = expected(query)
        corrections = expected(query, corrections_only=True)[1]
        label = query[:60]
        # a fresh navigation each (the simulation is set up at DOMContentLoaded: no need to wait
        # for the load event, which waits for the charts' files too)
        page.goto("/?" + query, wait_until="domcontentloaded")
        wait_rendered(page, query_of(state))
        if corrections:
            # where the reader is (the top of the page), the bar says the link was corrected
            try:
                page.wait_for_function(BAR_NOTE_SHOWN, timeout=5000)
            except PlaywrightTimeout:
                problems.append(f"{label}: the bar does not say the link was corrected")
        got = page.evaluate(LOAD_REPORT)
        if not corrections and got["barNote"]:
            problems.append(f"{label}: the bar says a correct link was corrected")
        shown = got["notes"]
        if state_of_controls(got["controls"]) != state:
            problems.append(f"{label}: controls show {got['controls']}, expected {state}")
        if shown["visible"] != (count > 0) or shown["texts"] != notes or len(notes) != count:
            problems.append(f"{label}: note {shown}, expected {count} notes {notes}")
        if any(e != "P0" for e in shown["elements"]):
            problems.append(f"{label}: markup in the note: {shown['elements']}")
        if count and got["search"] != query_of(state):
            problems.append(f"{label}: the URL was not corrected: {got['search'][:80]}")
        if got["census"] != baseline["census"] or got["suspicious"] or got["ran"] or got["csp"]:
            problems.append(
                f"{label}: markup from the URL: {got['census']} (before: {baseline['census']}), "
                f"{got['suspicious'][:5]}, script ran: {got['ran']}, CSP: {got['csp']}"
            )
    assert dialogs == []
    assert problems == [], "\n".join(problems[:20])


def test_a_corrected_gpu_count_is_told_as_the_count_priced(page, page_log):
    """Found by a cold read: ?target=llama-3.3-70b-instruct&tp=abc said "using one GPU" over a price
    on four, and ?target=qwen3-32b&tp=1000 "using 4" over two: the configuration decides the GPUs,
    and a link's count that is no count, or out of range, is told the count the page prices."""
    m = manifest()
    gpu = m["defaults"]["gpu"]
    targets = sorted({c["target"] for c in m["configurations"] if c["gpu"] == gpu}) if "configurations" in m else [
        "qwen3-8b", "qwen3-32b", "llama-3.3-70b-instruct"]
    queries = [f"target={t}&tp={v}" for t in targets for v in ("abc", "0", "1000", "3.5", "-2")]
    page.goto("/")
    wait_rendered(page, "")
    got = page.evaluate(
        """async (queries) => {
          const { parseQuery } = await import('/javascripts/core/url-state.js');
          const manifest = await (await fetch('/data/manifest.json')).json();
          return queries.map((q) => { const r = parseQuery('?' + q, manifest); return [r.state.tp, r.notes]; });
        }""", ["?" + q for q in queries])
    problems = []
    for query, (tp, notes) in zip(queries, got):
        told = [n for n in notes if n.startswith("tp=")]
        if len(told) != 1 or not told[0].endswith(f"; using {tp}."):
            problems.append(f"{query}: priced on {tp}, told {told}")
    assert len(targets) >= 3 and problems == [], "\n".join(problems)


def test_a_repeated_key_keeps_its_last_value_the_simulation_can_use(page, page_log):
    """Found by a cold read: ?batch=64&batch=abc said "using the last one", then "batch=abc is
    not a number …; using 1": the link opened at the default batch and dropped the 64 it holds."""
    page.goto("/?batch=64&batch=abc")
    wait_rendered(page, "?batch=64")
    notes = page.locator("#simulation [data-notes] p").all_inner_texts()
    assert notes == ["batch appears 2 times; using 64, the last value the simulation can use."], notes
    # a drafter the link's target takes, before one it does not (found by a cold read: the EAGLE-3
    # head dropped for Llama-3.2-1B, a drafter the link never named)
    page.goto("/?target=llama-3.1-8b-instruct&drafter=eagle3&drafter=qwen3-4b")
    wait_rendered(page, "?target=llama-3.1-8b-instruct&drafter=eagle3")
    notes = page.locator("#simulation [data-notes] p").all_inner_texts()
    assert "drafter appears 2 times; using EAGLE-3 head, the last value the simulation can use (Qwen3-4B draft model cannot draft for Llama-3.1-8B-Instruct)." in notes, notes
    page.goto("/?batch=abc&batch=xyz")
    wait_rendered(page, "")
    notes = page.locator("#simulation [data-notes] p").all_inner_texts()
    assert notes[0] == "batch appears 2 times; using the last one." and notes[1].startswith("batch=xyz is not a number"), notes
    # the value used is written as the controls write it (found by a cold read: "using 4096",
    # "0.8", "3.0" beside the controls' 4,096, 0.80 and 3), or as the link wrote it where a note
    # corrects it; a wrong-family drafter passed over is said why; a key is named as written
    got = page.evaluate(
        """async (queries) => {
          const { parseQuery } = await import('/javascripts/core/url-state.js');
          const manifest = await (await fetch('/data/manifest.json')).json();
          return queries.map((q) => parseQuery('?' + q, manifest).notes);
        }""", ["context=4096&context=x", "gamma=3&gamma=3.0&gamma=y", "alpha=0.7&alpha=0.8&alpha=x",
               "batch=99999&batch=x", "drafter=ngram&drafter=llama-3.2-1b", "num_speculative_tokens=5&num_speculative_tokens=x",
               "tp=2&tp=x&target=qwen3-32b"])
    can_use = "the last value the simulation can use"
    assert [notes[0] for notes in got] == [
        f"context appears 2 times; using 4,096, {can_use}.",
        f"gamma appears 3 times; using 3, {can_use}.",
        f"alpha appears 3 times; using 0.80, {can_use}.",
        f"batch appears 2 times; using batch=99999, {can_use}.",
        f"drafter appears 2 times; using n-gram prompt lookup, {can_use} (Llama-3.2-1B draft model cannot draft for Qwen3-8B).",
        "“num_speculative_tokens” read as gamma.",
        f"tp appears 2 times; using 2 GPUs, {can_use}.",
    ], got
    top = f"{manifest()['axes']['batch'][-1]:,}"
    assert got[3][1] == f"batch=99999 is outside 1–{top}; using {top}." and got[5][1] == (
        f"“num_speculative_tokens” appears 2 times; using 5, {can_use}."), got
