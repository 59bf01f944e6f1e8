"""The model's data: GPUs, models, drafters and engines, as plain entries, and their validation.

Entries are plain mappings (a datasheet's figures, a Hugging Face ``config.json``, a fitted
constant with its source), so adding a GPU, a model or a drafter of an existing kind is one entry.
``load_catalog`` validates every entry and stops at the first malformed one, naming entry and
field (ModelInputError). Nothing is validated at import: callers load a catalog explicitly and
pass it on; ``default_catalog()`` is the built-in one, loaded once.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from .architecture import Architecture
from .calibration.fitted import FITTED
from .costs import CALIBRATED, ENGINE_CONSTANTS, CostModel, cost_model
from .drafters import KINDS, Drafter
from .engines import Engine
from .entries import from_dict
from .errors import ModelInputError
from .fields import FIELDS
from .hardware import GPU
from .typical_acceptance import TYPICAL_ACCEPTANCE_ENTRIES, TypicalAcceptance, load_typical_acceptance

# NVIDIA H100 SXM5 datasheet: 3.35 TB/s HBM3, 989 TFLOP/s dense bf16 (1979 with sparsity), 80 GB.
# η_mem and η_flop are the ideal models' constants, fitted to the seed essay: the only pair that
# reproduces all nine single-pass figures it quotes (docs: "The model").
GPU_ENTRIES: dict[str, dict] = {
    "h100-sxm": {
        "label": "H100 SXM",
        "source": "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 3.35 TB/s, 989 TFLOP/s dense BF16, 80 GB",
        "peak_memory_bandwidth_bytes_per_s": 3.35e12,
        "peak_flops_per_s": 989e12,
        "memory_capacity_bytes": 80e9,
        "memory_efficiency": 0.80,
        "compute_efficiency": 0.75,
    },
}

# Hugging Face config.json of Qwen/Qwen3-8B, Qwen/Qwen3-0.6B, Qwen/Qwen3-1.7B.
MODEL_ENTRIES: dict[str, dict] = {
    "qwen3-8b": {
        "label": "Qwen3-8B", "hf_id": "Qwen/Qwen3-8B",
        "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 36,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 151936, "tie_word_embeddings": False,
    },
    "qwen3-0.6b": {
        "label": "Qwen3-0.6B", "hf_id": "Qwen/Qwen3-0.6B",
        "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 28,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 151936, "tie_word_embeddings": True,
    },
    "qwen3-1.7b": {
        "label": "Qwen3-1.7B", "hf_id": "Qwen/Qwen3-1.7B",
        "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 28,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 151936, "tie_word_embeddings": True,
    },
}

TARGET_KEYS = ("qwen3-8b",)
# Order matters: it is the drafter axis of the site's grid. Colours are the page's, dark enough
# to carry white text (≥ 4.3:1).
DRAFTER_ENTRIES: dict[str, dict] = {
    "qwen3-0.6b": {"kind": "draft_model", "label": "Qwen3-0.6B draft model", "colour": "#3B6FB6",
                   "model": "qwen3-0.6b"},
    "qwen3-1.7b": {"kind": "draft_model", "label": "Qwen3-1.7B draft model", "colour": "#7B5AA6",
                   "model": "qwen3-1.7b"},
    # vLLM's default prompt_lookup_max is 5 in some versions; 4 is what the essay's config shows.
    "ngram": {"kind": "ngram", "label": "n-gram prompt lookup", "colour": "#17877D", "prompt_lookup_max": 4},
}


def _fitted(engine: str, name: str) -> dict:
    f = FITTED[engine]
    value = f["constants"][name]
    error = ("at the bound of its range" if value.get("at_bound")
             else f"± {value['stderr']:.2g}, one standard error")
    return {"value": value["value"], "source": f"fitted: {f['summary']} ({error})"}


_FIXED_SOURCES = {
    "verify_outside_graph_layer_s": "vLLM captures the verify pass in (piecewise) CUDA graphs, as it does plain "
                                    "decoding (vllm/v1/worker/gpu_model_runner.py)",
    "pass_launch_s": "not fitted: while every drafter on the launch floor has 28 layers, the data fix only "
                     "28·layer_launch_s + pass_launch_s, so the per-pass part is folded into the per-layer cost",
}


def default_engine_entries() -> dict[str, dict]:
    """The engine presets, from the fitted constants (``calibration/fitted.py``) and the fixed ones.

    Built when a catalog is loaded, not at import: ``specmodel calibrate`` must run even when the
    stored constants are incomplete or malformed.
    """
    def vllm() -> dict:  # a fresh copy per engine: entries are edited one at a time
        return {name: {"value": v["value"], "source": _FIXED_SOURCES[name]} if name in _FIXED_SOURCES
                else _fitted("vllm", name) for name, v in FITTED["vllm"]["constants"].items()}

    return {
        "vllm": {
            "label": "vLLM (CUDA graphs)",
            "calibrated_on": "Qwen3-8B on one H100 SXM, vLLM 0.10–0.11",
            "constants": vllm(),
        },
        "sglang": {
            "label": "SGLang",
            "calibrated_on": "Qwen3-8B on one H100 SXM, SGLang 0.5.3 (one step time); kernels as vLLM",
            "constants": {**vllm(), "step_overhead_s": _fitted("sglang", "step_overhead_s")},
        },
        "tensorrt-llm": {
            "label": "TensorRT-LLM",
            "calibrated_on": "Qwen3-8B on one H100 SXM, TensorRT-LLM 1.2 (one step time); kernels as vLLM",
            "constants": {**vllm(), "step_overhead_s": _fitted("tensorrt-llm", "step_overhead_s")},
        },
        "eager": {
            "label": "an engine that verifies outside CUDA graphs",
            "calibrated_on": "vLLM's constants, plus an estimated launch cost for verify passes",
            "constants": {
                **vllm(),
                "verify_outside_graph_layer_s": {
                    "value": 200e-6,
                    "source": "estimate: kernels launched one by one from Python cost about 10–20 µs each, "
                              "a dozen per layer; chosen so that a verify pass at batch 1 costs about one "
                              "extra plain step, as users of eager-mode and llama.cpp speculation report",
                },
            },
        },
    }


@dataclass(frozen=True)
class Catalog:
    """Validated entries by key: gpus, targets (models a reader can pick as the target), models
    (every architecture, drafts included), drafters, engines, and typical_acceptance (drafter →
    task → how well it guesses there, ``typical_acceptance.py``)."""

    gpus: dict[str, GPU]
    targets: dict[str, Architecture]
    models: dict[str, Architecture]
    drafters: dict[str, Drafter]
    engines: dict[str, Engine]
    typical_acceptance: dict[str, dict[str, TypicalAcceptance]]

    def section(self, name: str) -> dict:
        return getattr(self, name)

    def check_state(self, state) -> None:
        """Raise ModelInputError unless every catalog key of ``state`` is in this catalog."""
        for name, f in FIELDS.items():
            if f.section:
                f.check(getattr(state, name), list(self.section(f.section)))

    def cost_model(self, name: str, engine: str) -> CostModel:
        """The cost model ``name``; the calibrated one with the constants of ``engine``."""
        return cost_model(name, self.engines[engine].constants if name == CALIBRATED else None)


def _drafter(key: str, entry: dict, models: dict) -> Drafter:
    if not isinstance(entry, dict):
        raise ModelInputError(f"drafter[{key}]", f"got {type(entry).__name__}", "a mapping of field → value")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise ModelInputError(f"drafter[{key}].kind", f"got {kind!r}", ", ".join(KINDS))
    cls = KINDS[kind]
    allowed = ("kind", "label", "colour", *cls.entry_fields)
    for name in ("label", "colour", *cls.entry_fields):
        if name not in entry:
            raise ModelInputError(f"drafter[{key}].{name}", "missing", "every field of: " + ", ".join(allowed))
    unknown = sorted(set(entry) - set(allowed))
    if unknown:
        raise ModelInputError(f"drafter[{key}].{unknown[0]}", "unknown field", ", ".join(allowed))
    fields = {k: v for k, v in entry.items() if k != "kind"}
    if "model" in fields:
        model_key = fields.pop("model")
        if model_key not in models:
            raise ModelInputError(f"drafter[{key}].model", f"unknown model {model_key!r}", ", ".join(models))
        fields["architecture"] = models[model_key]
    return cls(key=key, **fields)


def load_catalog(
    gpu_entries: dict = GPU_ENTRIES,
    model_entries: dict = MODEL_ENTRIES,
    drafter_entries: dict = DRAFTER_ENTRIES,
    engine_entries: dict | None = None,
    target_keys: tuple = TARGET_KEYS,
    typical_acceptance_entries: dict = TYPICAL_ACCEPTANCE_ENTRIES,
) -> Catalog:
    """Validate every entry and return the catalog (engines: ``engine_entries()`` unless given).
    Raises ModelInputError naming entry and field."""
    if engine_entries is None:
        try:
            engine_entries = default_engine_entries()
        except (KeyError, TypeError) as e:
            raise ModelInputError("calibration/fitted.py", f"incomplete ({e})",
                                  "the constants `specmodel calibrate --write` stores") from None
    gpus = {k: from_dict(GPU, "gpu", k, v) for k, v in gpu_entries.items()}
    models = {k: Architecture.from_dict(k, v) for k, v in model_entries.items()}
    for k in target_keys:
        if k not in models:
            raise ModelInputError(f"target[{k}]", "not a model of the catalog", ", ".join(models))
    drafters = {k: _drafter(k, v, models) for k, v in drafter_entries.items()}
    engines = {k: Engine.from_entry(k, v) for k, v in engine_entries.items()}
    typical = load_typical_acceptance(typical_acceptance_entries, drafters)
    return Catalog(gpus=gpus, targets={k: models[k] for k in target_keys}, models=models,
                   drafters=drafters, engines=engines, typical_acceptance=typical)


@functools.cache
def default_catalog() -> Catalog:
    """The built-in catalog, validated on first use."""
    return load_catalog()


__all__ = ["Catalog", "load_catalog", "default_catalog", "default_engine_entries", "GPU_ENTRIES", "MODEL_ENTRIES",
           "DRAFTER_ENTRIES", "TARGET_KEYS", "ENGINE_CONSTANTS"]
