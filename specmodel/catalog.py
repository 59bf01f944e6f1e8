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
from .calibration.fixed import FIXED_CONSTANTS
from .costs import CALIBRATED, ENGINE_CONSTANTS, CostModel, cost_model
from .drafters import KINDS, Drafter
from .engines import Engine
from .entries import from_dict
from .errors import ModelInputError
from .fields import FIELDS
from .hardware import GPU
from .typical_acceptance import TYPICAL_ACCEPTANCE_ENTRIES, TypicalAcceptance, load_typical_acceptance

# Datasheet figures: dense bf16 tensor FLOP/s (the datasheets print the sparse figure, twice
# this), HBM bandwidth and capacity, and the bandwidth one GPU has to the others for tensor
# parallelism, one direction. η_mem and η_flop are the ideal models' constants, fitted to the seed
# essay on the H100 (the only pair that reproduces its nine single-pass figures; docs: "The model")
# and carried over to the other GPUs unchanged.
_IDEAL = {"memory_efficiency": 0.80, "compute_efficiency": 0.75}
GPU_ENTRIES: dict[str, dict] = {
    "h100-sxm": {
        "label": "H100 SXM",
        "source": "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 3.35 TB/s HBM3, 989 TFLOP/s dense BF16 (1,979 with "
                  "sparsity), 80 GB; NVLink 4 900 GB/s, 450 GB/s each way",
        "source_url": "https://www.nvidia.com/en-us/data-center/h100/",
        "peak_memory_bandwidth_bytes_per_s": 3.35e12,
        "peak_flops_per_s": 989e12,
        "memory_capacity_bytes": 80e9,
        "interconnect_bytes_per_s": 450e9,
        **_IDEAL,
    },
    "h200": {
        "label": "H200 SXM",
        "source": "NVIDIA H200 datasheet: 4.8 TB/s HBM3e, 141 GB; the H100's GH100 die, 989 TFLOP/s dense BF16 (1,979 "
                  "with sparsity); NVLink 4 900 GB/s, 450 GB/s each way",
        "source_url": "https://www.nvidia.com/en-us/data-center/h200/",
        "peak_memory_bandwidth_bytes_per_s": 4.8e12,
        "peak_flops_per_s": 989e12,
        "memory_capacity_bytes": 141e9,
        "interconnect_bytes_per_s": 450e9,
        **_IDEAL,
    },
    "b200": {
        "label": "B200 (HGX)",
        "source": "NVIDIA HGX B200 (1,000 W): 36 PFLOP/s BF16 with sparsity for 8 GPUs, so 2,250 TFLOP/s dense per GPU; "
                  "DGX B200 64 TB/s and 1,440 GB for 8 GPUs, so 8 TB/s and 180 GB each; NVLink 5 1.8 TB/s, 900 GB/s "
                  "each way",
        "source_url": "https://www.nvidia.com/en-us/data-center/hgx/",
        "peak_memory_bandwidth_bytes_per_s": 8.0e12,
        "peak_flops_per_s": 2250e12,
        "memory_capacity_bytes": 180e9,
        "interconnect_bytes_per_s": 900e9,
        **_IDEAL,
    },
    "a100-sxm": {
        "label": "A100 SXM 80 GB",
        "source": "NVIDIA A100 datasheet (SXM4 80 GB): 2,039 GB/s HBM2e, 312 TFLOP/s dense BF16 (624 with sparsity); "
                  "NVLink 3 600 GB/s, 300 GB/s each way",
        "source_url": "https://www.nvidia.com/en-us/data-center/a100/",
        "peak_memory_bandwidth_bytes_per_s": 2.039e12,
        "peak_flops_per_s": 312e12,
        "memory_capacity_bytes": 80e9,
        "interconnect_bytes_per_s": 300e9,
        **_IDEAL,
    },
    "l40s": {
        "label": "L40S",
        "source": "NVIDIA L40S datasheet: 864 GB/s GDDR6, 362.05 TFLOP/s dense BF16 (733 with sparsity), 48 GB; no "
                  "NVLink: PCIe Gen4 x16, 64 GB/s both ways, 32 GB/s each way",
        "source_url": "https://www.nvidia.com/en-us/data-center/l40s/",
        "peak_memory_bandwidth_bytes_per_s": 864e9,
        "peak_flops_per_s": 362.05e12,
        "memory_capacity_bytes": 48e9,
        "interconnect_bytes_per_s": 32e9,
        **_IDEAL,
    },
    "mi300x": {
        "label": "MI300X",
        "source": "AMD Instinct MI300 microarchitecture (ROCm docs): 1,307.4 TFLOP/s dense BF16, 5.3 TB/s; AMD "
                  "MI300X: 192 GB HBM3; Infinity Fabric: 7 links to the other GPUs of an 8-GPU node, 64 GB/s each "
                  "way each, 448 GB/s in all",
        "source_url": "https://rocm.docs.amd.com/en/docs-6.3.0/conceptual/gpu-arch/mi300.html",
        "peak_memory_bandwidth_bytes_per_s": 5.3e12,
        "peak_flops_per_s": 1307.4e12,
        "memory_capacity_bytes": 192e9,
        "interconnect_bytes_per_s": 448e9,
        **_IDEAL,
    },
}

# Room the weights must leave for the KV caches (and vLLM's own reserve): a target is served on the
# fewest GPUs on which its and its largest drafter's weights take at most this share.
WEIGHT_SHARE = 0.8

# Hugging Face config.json fields (the sources are each entry's hf_id; docs "The model" lists
# them). Qwen3: q/k RMSNorm; Llama: none. EAGLE-3 heads: the heads' training configs (AngelSlim's
# for Qwen3, SafeAILab/EAGLE's for Llama), their draft vocabulary as vocab_size.
_QWEN3_VOCAB, _LLAMA_VOCAB = 151936, 128256
_LLAMA = {"qk_norm": False, "vocab_size": _LLAMA_VOCAB}
MODEL_ENTRIES: dict[str, dict] = {
    "qwen3-8b": {
        "label": "Qwen3-8B", "hf_id": "Qwen/Qwen3-8B",
        "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 36,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": _QWEN3_VOCAB, "tie_word_embeddings": False,
    },
    "qwen3-14b": {
        "label": "Qwen3-14B", "hf_id": "Qwen/Qwen3-14B",
        "hidden_size": 5120, "intermediate_size": 17408, "num_hidden_layers": 40,
        "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": _QWEN3_VOCAB, "tie_word_embeddings": False,
    },
    "qwen3-32b": {
        "label": "Qwen3-32B", "hf_id": "Qwen/Qwen3-32B",
        "hidden_size": 5120, "intermediate_size": 25600, "num_hidden_layers": 64,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": _QWEN3_VOCAB, "tie_word_embeddings": False,
    },
    "qwen3-30b-a3b": {
        "label": "Qwen3-30B-A3B", "hf_id": "Qwen/Qwen3-30B-A3B",
        "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 48,
        "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
        "vocab_size": _QWEN3_VOCAB, "tie_word_embeddings": False,
        "num_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 768,
    },
    "llama-3.1-8b-instruct": {
        "label": "Llama-3.1-8B-Instruct", "hf_id": "meta-llama/Llama-3.1-8B-Instruct",
        "former_hf_ids": ["meta-llama/Meta-Llama-3.1-8B-Instruct"],
        "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "tie_word_embeddings": False, **_LLAMA,
    },
    "llama-3.3-70b-instruct": {
        "label": "Llama-3.3-70B-Instruct", "hf_id": "meta-llama/Llama-3.3-70B-Instruct",
        "hidden_size": 8192, "intermediate_size": 28672, "num_hidden_layers": 80,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128,
        "tie_word_embeddings": False, **_LLAMA,
    },
    # draft models
    "qwen3-0.6b": {
        "label": "Qwen3-0.6B", "hf_id": "Qwen/Qwen3-0.6B",
        "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 28,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": _QWEN3_VOCAB, "tie_word_embeddings": True,
    },
    "qwen3-1.7b": {
        "label": "Qwen3-1.7B", "hf_id": "Qwen/Qwen3-1.7B",
        "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 28,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": _QWEN3_VOCAB, "tie_word_embeddings": True,
    },
    "qwen3-4b": {
        "label": "Qwen3-4B", "hf_id": "Qwen/Qwen3-4B",
        "hidden_size": 2560, "intermediate_size": 9728, "num_hidden_layers": 36,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": _QWEN3_VOCAB, "tie_word_embeddings": True,
    },
    "llama-3.2-1b-instruct": {
        "label": "Llama-3.2-1B-Instruct", "hf_id": "meta-llama/Llama-3.2-1B-Instruct",
        "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64,
        "tie_word_embeddings": True, **_LLAMA,
    },
    # EAGLE-3 heads: one layer, draft vocabulary 32,000, q/k/v read 2·h
    "eagle3-qwen3-8b": {
        "label": "EAGLE-3 head for Qwen3-8B", "hf_id": "AngelSlim/Qwen3-8B_eagle3",
        "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 1,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 32000, "tie_word_embeddings": False, "qk_norm": False, "eagle3_target_hidden_size": 4096,
    },
    "eagle3-qwen3-14b": {
        "label": "EAGLE-3 head for Qwen3-14B", "hf_id": "AngelSlim/Qwen3-14B_eagle3",
        "hidden_size": 5120, "intermediate_size": 17408, "num_hidden_layers": 1,
        "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 32000, "tie_word_embeddings": False, "qk_norm": False, "eagle3_target_hidden_size": 5120,
    },
    "eagle3-qwen3-32b": {
        "label": "EAGLE-3 head for Qwen3-32B", "hf_id": "AngelSlim/Qwen3-32B_eagle3",
        "hidden_size": 5120, "intermediate_size": 25600, "num_hidden_layers": 1,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 32000, "tie_word_embeddings": False, "qk_norm": False, "eagle3_target_hidden_size": 5120,
    },
    "eagle3-qwen3-30b-a3b": {
        "label": "EAGLE-3 head for Qwen3-30B-A3B", "hf_id": "AngelSlim/Qwen3-a3B_eagle3",
        "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 1,
        "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
        "vocab_size": 32000, "tie_word_embeddings": False, "qk_norm": False, "eagle3_target_hidden_size": 2048,
    },
    "eagle3-llama-3.1-8b-instruct": {
        "label": "EAGLE-3 head for Llama-3.1-8B-Instruct", "hf_id": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
        "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 1,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 32000, "tie_word_embeddings": False, "qk_norm": False, "eagle3_target_hidden_size": 4096,
    },
    "eagle3-llama-3.3-70b-instruct": {
        # SpecForge's training config for Llama-3 70B heads (sgl-project/SpecForge
        # configs/llama3-70B-ealge3.json), which LMSYS's head was trained from; the EAGLE authors'
        # own 70B head is narrower than its target, but its config was not available.
        "label": "EAGLE-3 head for Llama-3.3-70B-Instruct", "hf_id": "lmsys/SGLang-EAGLE3-Llama-3.3-70B-Instruct-SpecForge",
        "hidden_size": 8192, "intermediate_size": 28672, "num_hidden_layers": 1,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128,
        "vocab_size": 32000, "tie_word_embeddings": False, "qk_norm": False, "eagle3_target_hidden_size": 8192,
    },
}

TARGET_KEYS = ("qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "llama-3.1-8b-instruct",
               "llama-3.3-70b-instruct")
# Order matters: it is the drafter axis of the site's grid. Colours are the page's, dark enough
# to carry white text (≥ 4.3:1). A draft model drafts for every target of its vocabulary that is
# larger than it; an EAGLE-3 head for its own target only; prompt lookup for any.
DRAFTER_ENTRIES: dict[str, dict] = {
    "qwen3-0.6b": {"kind": "draft_model", "label": "Qwen3-0.6B draft model", "colour": "#3B6FB6",
                   "model": "qwen3-0.6b"},
    "qwen3-1.7b": {"kind": "draft_model", "label": "Qwen3-1.7B draft model", "colour": "#7B5AA6",
                   "model": "qwen3-1.7b"},
    "qwen3-4b": {"kind": "draft_model", "label": "Qwen3-4B draft model", "colour": "#8A3F7E", "model": "qwen3-4b"},
    "llama-3.2-1b": {"kind": "draft_model", "label": "Llama-3.2-1B draft model", "colour": "#8C6D1F",
                     "model": "llama-3.2-1b-instruct"},
    "eagle3": {"kind": "eagle3", "label": "EAGLE-3 head", "colour": "#A34A00",
               "heads": {"qwen3-8b": "eagle3-qwen3-8b", "qwen3-14b": "eagle3-qwen3-14b",
                         "qwen3-32b": "eagle3-qwen3-32b", "qwen3-30b-a3b": "eagle3-qwen3-30b-a3b",
                         "llama-3.1-8b-instruct": "eagle3-llama-3.1-8b-instruct",
                         "llama-3.3-70b-instruct": "eagle3-llama-3.3-70b-instruct"}},
    # vLLM's default prompt_lookup_max is 5 in some versions; 4 is what the essay's config shows.
    # Its colour holds white text at 5:1 (the decision map's labels); #17877D held only 4.4:1.
    "ngram": {"kind": "ngram", "label": "n-gram prompt lookup", "colour": "#157C73", "prompt_lookup_max": 4},
}


def _fitted(engine: str, name: str) -> dict:
    f = FITTED[engine]
    value = f["constants"][name]
    error = ("at the bound of its range" if value.get("at_bound")
             else f"± {value['stderr']:.2g}, one standard error")
    return {"value": value["value"], "source": f"fitted: {f['summary']} ({error})"}


def default_engine_entries() -> dict[str, dict]:
    """The engine presets, from the fitted constants (``calibration/fitted.py``) and the fixed ones.

    Built when a catalog is loaded, not at import: ``specmodel calibrate`` must run even when the
    stored constants are incomplete or malformed.
    """
    def vllm() -> dict:  # a fresh copy per engine: entries are edited one at a time
        return {name: dict(FIXED_CONSTANTS[name]) if name in FIXED_CONSTANTS else _fitted("vllm", name)
                for name in ENGINE_CONSTANTS}

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
    typical_acceptance: dict[str, dict[str, dict[str, TypicalAcceptance]]]

    def section(self, name: str) -> dict:
        return getattr(self, name)

    def check_state(self, state) -> None:
        """Raise ModelInputError unless every catalog key of ``state`` is in this catalog and
        its drafter drafts for its target."""
        for name, f in FIELDS.items():
            if f.section:
                f.check(getattr(state, name), list(self.section(f.section)))
        if state.drafter not in self.drafters_for(state.target):
            raise ModelInputError("drafter", f"{state.drafter} does not draft for {state.target}",
                                  ", ".join(self.drafters_for(state.target)))

    def drafter(self, key: str, target: str) -> Drafter:
        """Drafter ``key`` as it drafts for target ``target`` (an EAGLE-3 head: that target's).
        ModelInputError if it cannot."""
        return self.drafters[key].for_target(self.targets[target])

    def drafters_for(self, target: str) -> list[str]:
        """The keys of the drafters that serve ``target``, in catalog order."""
        return [k for k, d in self.drafters.items() if d.serves(self.targets[target])]

    def default_drafter_for(self, target: str) -> str:
        """The drafter the CLI and the site start ``target`` with: FIELDS["drafter"].default if it
        drafts for ``target``, else the first drafter of the target's family (catalog order)."""
        serving = self.drafters_for(target)
        default = FIELDS["drafter"].default
        return default if default in serving else serving[0]

    def tensor_parallel_for(self, gpu: str, target: str) -> int | None:
        """The fewest GPUs (1, 2, 4, 8: FIELDS["tp"]) on which ``target``'s weights and its largest
        drafter's take at most WEIGHT_SHARE of the memory; None if eight are not enough. The site
        offers each target on this many GPUs, and the CLI assumes it when --tp is not given."""
        weights = self.targets[target].weight_bytes + max(
            self.drafter(d, target).weight_bytes for d in self.drafters_for(target))
        for tp in FIELDS["tp"].grid:
            if weights <= WEIGHT_SHARE * tp * self.gpus[gpu].memory_capacity_bytes:
                return tp
        return None

    def gpu_group(self, gpu: str, tensor_parallel: int):
        """``tensor_parallel`` GPUs ``gpu`` serving one model (``GPU.group``)."""
        return self.gpus[gpu].group(tensor_parallel)

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
    if "heads" in fields:
        heads = fields["heads"]
        if not isinstance(heads, dict):
            raise ModelInputError(f"drafter[{key}].heads", f"got {heads!r}", "a mapping of target key → head model key")
        for target, model_key in heads.items():
            if model_key not in models:
                raise ModelInputError(f"drafter[{key}].heads[{target}]", f"unknown model {model_key!r}", ", ".join(models))
        fields["heads"] = {target: models[model_key] for target, model_key in heads.items()}
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
    typical = load_typical_acceptance(typical_acceptance_entries, drafters, {k: models[k] for k in target_keys})
    return Catalog(gpus=gpus, targets={k: models[k] for k in target_keys}, models=models,
                   drafters=drafters, engines=engines, typical_acceptance=typical)


@functools.cache
def default_catalog() -> Catalog:
    """The built-in catalog, validated on first use."""
    return load_catalog()


__all__ = ["Catalog", "load_catalog", "default_catalog", "default_engine_entries", "GPU_ENTRIES", "MODEL_ENTRIES",
           "DRAFTER_ENTRIES", "TARGET_KEYS", "ENGINE_CONSTANTS"]
