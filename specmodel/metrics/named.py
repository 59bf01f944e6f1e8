"""Which of the catalog's targets and drafters a reader's text names.

A Prometheus scrape names its served model (vLLM's ``model_name`` label); a vLLM log's start-up
line names the served model, the speculative method and its draft model (parse._startup). Where
the catalog holds what a text names, ``fit-metrics`` and the page's paste box price it unless the
reader says otherwise (found by a cold read: a log naming Llama-3.1-8B-Instruct and its EAGLE-3
head was priced as Qwen3-8B with a draft model, the reader told to set their own).
views/metrics.js namedDeployment reads the same map, which the manifest carries.
"""
from __future__ import annotations

from ..catalog import Catalog
from .parse import Reading


def _last_part(name: str) -> str:
    """A Hugging Face id's model part, lower-case ("meta-llama/Llama-3.1-8B-Instruct" →
    "llama-3.1-8b-instruct"): a served name may drop the organisation."""
    return name.rsplit("/", 1)[-1].lower()


def deployment_names(catalog: Catalog) -> dict[str, dict]:
    """{"target": name → target key, "drafter": name → drafter key, "checkpoint": drafter key →
    target key → Hugging Face id, "kind": drafter key → vLLM method, "target_id": target key →
    Hugging Face id}: the lower-case names by which a text may name the catalog's entries, the
    checkpoint each drafter with weights drafts a target with, each drafter's kind and each
    target's id (a link's note names the nearest model's, site_name). A target by its label (its
    Hugging Face id's last part) and that part of its ``hf_id`` and ``former_hf_ids`` (found by a cold read: a link naming
    meta-llama/Meta-Llama-3.1-8B-Instruct, the id older logs give, was refused); a draft model by
    those parts of its ids; a drafter of another kind by its vLLM method name (``Drafter.kind``:
    "eagle3", "ngram"), since a head's checkpoint varies by target and n-gram lookup has none.
    A link's method=draft_model names no one draft model: the page takes the target's first
    (``kind``; found by a cold read: refused)."""
    targets: dict[str, str] = {}
    for key, target in catalog.targets.items():
        targets[target.label.lower()] = key
        for hf_id in (target.hf_id, *target.former_hf_ids):
            targets[_last_part(hf_id)] = key
    drafters: dict[str, str] = {}
    for key, drafter in catalog.drafters.items():
        if drafter.kind == "draft_model":
            for hf_id in (drafter.architecture.hf_id, *drafter.architecture.former_hf_ids):
                drafters[_last_part(hf_id)] = key
        else:
            drafters[drafter.kind] = key
    checkpoints = {key: {target: catalog.drafter(key, target).architecture.hf_id for target in catalog.targets
                         if key in catalog.drafters_for(target)}
                   for key, drafter in catalog.drafters.items() if drafter.kind != "ngram"}
    kinds = {key: drafter.kind for key, drafter in catalog.drafters.items()}
    target_ids = {key: target.hf_id for key, target in catalog.targets.items()}
    return {"target": targets, "drafter": drafters, "checkpoint": checkpoints, "kind": kinds, "target_id": target_ids}


# What may follow a model's name in a variant's ("Qwen3-32B-FP8", "Qwen3-30B-A3B-Instruct-2507",
# "Llama-3.2-1B" beside the catalog's "Llama-3.2-1B-Instruct").
# ("_" is none: AngelSlim's heads are "Qwen3-8B_eagle3", no variant of Qwen3-8B)
_NAME_SEPARATORS = "-."


def _alike(a: str, b: str) -> bool:
    """Whether one lower-case model name is the other with more words after it."""
    return a != b and any(a.startswith(b + sep) or b.startswith(a + sep) for sep in _NAME_SEPARATORS)


def site_name(name: str, by_name: dict[str, str]) -> tuple[str | None, bool]:
    """The key a model ``name`` (a Hugging Face id or its model part) names in ``by_name`` (a map
    of deployment_names), and whether it names it exactly: else the one entry whose name it is
    with more words or fewer (a quantisation, a later release, a base checkpoint), the nearest the
    catalog has; (None, False) where none or several are. Found by a cold read: a text naming
    Qwen/Qwen3-30B-A3B-Instruct-2507 and the catalog's head for Qwen3-30B-A3B priced dense Qwen3-8B.
    views/metrics.js siteName and core/url-state.js read names by the same rule."""
    part = _last_part(name)
    if part in by_name:
        return by_name[part], True
    keys = {key for known, key in by_name.items() if _alike(part, known)}
    return (keys.pop(), False) if len(keys) == 1 else (None, False)


def served_models(reading: Reading) -> tuple[tuple[str, ...], str]:
    """The models ``reading`` names and where it names them: a scrape's ``model_name`` labels (the
    model of the start-up line that serves it under that name, --served-model-name: found by a
    cold read, a scrape labelled "qwen" priced no target where its start-up line named it), else
    a log's vLLM start-up line or the `vllm serve` flags it holds; ((), "") where it names none."""
    startup = reading.startup or {}
    if (reading.model_names and startup.get("model") not in (None, reading.model_names[0])
            and startup.get("served_model_name") == reading.model_names[0]):
        return (startup["model"],), startup["said_in"]
    if reading.model_names:
        return reading.model_names, "its model_name label"
    if reading.startup and reading.startup["model"]:
        return (reading.startup["model"],), reading.startup["said_in"]
    return (), ""


def named_target(reading: Reading, names: dict[str, dict[str, str]]) -> str | None:
    """The target key of the model ``reading`` names (``names``: deployment_names), where every
    name it gives is that one catalog target or its nearest (site_name); None where it names none,
    one the catalog has nothing near, or several."""
    models, _ = served_models(reading)
    keys = {site_name(m, names["target"])[0] for m in models}
    return keys.pop() if len(keys) == 1 and None not in keys else None


def names_target_exactly(reading: Reading, names: dict[str, dict[str, str]]) -> bool:
    """Whether every model ``reading`` names is a catalog target by its own name (not the nearest
    one, site_name)."""
    models, _ = served_models(reading)
    return bool(models) and all(site_name(m, names["target"])[1] for m in models)


def named_drafter(reading: Reading, names: dict[str, dict[str, str]]) -> str | None:
    """The drafter key a vLLM start-up line in ``reading`` names, by its method ("eagle3",
    "ngram"), else by its draft model's id or the nearest the catalog has (site_name; ``names``:
    deployment_names); None where it names none or one the catalog lacks (vLLM's "eagle", "medusa", "mtp", a draft model not in the catalog)."""
    startup = reading.startup or {}
    method, model = startup.get("method"), startup.get("draft_model")
    if not method:
        return None
    # (a draft model by its name: the names of kinds, eagle3 and ngram, are none)
    models = {name: key for name, key in names["drafter"].items() if name not in names["kind"].values()}
    return names["drafter"].get(method.lower()) or (site_name(model, models)[0] if model else None)


def named_checkpoint(reading: Reading, drafter: str, target: str, names: dict) -> bool:
    """Whether the drafter ``reading``'s start-up line names is ``drafter`` (a catalog key) with the
    checkpoint it drafts ``target`` with (``names``: deployment_names): its kind, and its draft
    model where it names one. Found by a cold read: a log's EAGLE-3 head for Llama-3.1-8B, the
    target since set to Qwen3-14B, said to be the head priced, which was AngelSlim's for Qwen3-14B."""
    if named_drafter(reading, names) != drafter:
        return False
    model = (reading.startup or {}).get("draft_model")
    checkpoint = names["checkpoint"].get(drafter, {}).get(target)
    return not model or not checkpoint or _last_part(model) == _last_part(checkpoint)
