"""The model's data entries: GPUs, target models and drafters, validated when imported.

Entries are plain mappings (the GPU datasheet, the models' Hugging Face ``config.json``) so that
adding one is a data change; ``build_catalog`` validates every entry and stops at the first
malformed one with the entry and field named (ModelInputError).
"""
from __future__ import annotations

from dataclasses import dataclass

from .architecture import Architecture
from .drafters import DRAFT_MODEL, NGRAM, Drafter
from .errors import ModelInputError
from .hardware import GPU

# NVIDIA H100 SXM5 datasheet: 3.35 TB/s HBM3, 989 TFLOP/s dense bf16 (1979 with sparsity), 80 GB.
# η_mem and η_flop are fitted: the only pair that reproduces all nine single-pass figures of the
# seed essay at once (docs: "The model").
GPU_ENTRIES: dict[str, dict] = {
    "h100-sxm": {
        "label": "H100 SXM",
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
# Order matters: it is the drafter axis of the site's grid.
DRAFTER_ENTRIES: dict[str, dict] = {
    "qwen3-0.6b": {"label": "Qwen3-0.6B draft model", "method": DRAFT_MODEL, "model": "qwen3-0.6b"},
    "qwen3-1.7b": {"label": "Qwen3-1.7B draft model", "method": DRAFT_MODEL, "model": "qwen3-1.7b"},
    # vLLM's default prompt_lookup_max is 5 in some versions; 4 is what the essay's config shows.
    "ngram": {"label": "n-gram prompt lookup", "method": NGRAM, "prompt_lookup_max": 4},
}


@dataclass(frozen=True)
class Catalog:
    """Validated entries by key."""

    gpus: dict[str, GPU]
    targets: dict[str, Architecture]
    drafters: dict[str, Drafter]


def build_catalog(
    gpu_entries: dict = GPU_ENTRIES,
    model_entries: dict = MODEL_ENTRIES,
    drafter_entries: dict = DRAFTER_ENTRIES,
    target_keys: tuple = TARGET_KEYS,
) -> Catalog:
    """Validate every entry and return the catalog. Raises ModelInputError naming entry and field."""
    gpus = {k: GPU.from_dict(k, v) for k, v in gpu_entries.items()}
    models = {k: Architecture.from_dict(k, v) for k, v in model_entries.items()}
    drafters = {}
    for key, entry in drafter_entries.items():
        entry = dict(entry)
        model_key = entry.pop("model", None)
        if model_key is not None and model_key not in models:
            raise ModelInputError(f"drafter[{key}].model", f"unknown model {model_key!r}", ", ".join(models))
        drafters[key] = Drafter(key=key, architecture=models.get(model_key), **entry)
    targets = {k: models[k] for k in target_keys}
    return Catalog(gpus=gpus, targets=targets, drafters=drafters)


CATALOG = build_catalog()
