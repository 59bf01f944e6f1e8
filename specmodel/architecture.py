"""Decoder-only transformer architectures, sized from their Hugging Face ``config.json`` fields.

Parameter counts, weight bytes and KV-cache bytes per token are derived from the config fields
here, never typed in, so a new model is one config entry.
"""
from __future__ import annotations

from dataclasses import dataclass

from .entries import check_fields, from_dict
from .errors import ModelInputError

BF16_BYTES = 2  # bytes per weight and per cached K/V element in bf16


@dataclass(frozen=True)
class Architecture:
    """A Qwen3-style decoder (GQA attention with q/k RMSNorm, SwiGLU MLP, no biases).

    Field names are the Hugging Face ``config.json`` keys (``hidden_size`` = h,
    ``intermediate_size`` = I, ``num_hidden_layers`` = L, ``num_attention_heads`` = n_q,
    ``num_key_value_heads`` = n_kv, ``head_dim`` = d, ``vocab_size`` = V), plus ``key`` (CLI
    name), ``label`` and ``hf_id`` (the repository id vLLM's ``--speculative-config`` takes).

    Raises ModelInputError naming ``model[<key>].<field>`` for a missing, mistyped or
    non-positive size, or KV heads that do not divide the query heads.
    """

    key: str
    label: str
    hf_id: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    vocab_size: int
    tie_word_embeddings: bool

    def __post_init__(self) -> None:
        check_fields(self, "model")
        if self.num_attention_heads % self.num_key_value_heads:
            raise ModelInputError(
                f"model[{self.key}].num_key_value_heads",
                f"{self.num_key_value_heads} does not divide num_attention_heads={self.num_attention_heads}",
                "a divisor of num_attention_heads (grouped-query attention)",
            )

    @classmethod
    def from_dict(cls, key: str, entry: dict) -> "Architecture":
        """Build from a plain mapping of config fields; missing or unknown fields are errors."""
        return from_dict(cls, "model", key, entry)

    @property
    def params(self) -> int:
        """Parameter count.

        L·(h·n_q·d + 2·h·n_kv·d + n_q·d·h + 3·h·I + 2·h + 2·d) + V·h·(1 if tied else 2) + h:
        q, k, v, o projections, SwiGLU MLP (gate, up, down), the two RMSNorms and the q/k norms of
        each layer, the embedding (and untied LM head), the final norm; Qwen3 has no biases.
        Qwen3-8B gives 8,190,735,360 (docs/model.md cites the configs).
        """
        h, d = self.hidden_size, self.head_dim
        per_layer = (
            h * self.num_attention_heads * d
            + 2 * h * self.num_key_value_heads * d
            + self.num_attention_heads * d * h
            + 3 * h * self.intermediate_size
            + 2 * h
            + 2 * d
        )
        embeddings = self.vocab_size * h * (1 if self.tie_word_embeddings else 2)
        return self.num_hidden_layers * per_layer + embeddings + h

    @property
    def weight_bytes(self) -> int:
        """Bytes of weights in bf16: 2 · params."""
        return BF16_BYTES * self.params

    @property
    def kv_bytes_per_token(self) -> int:
        """KV-cache bytes per cached token: 2 (K and V) · L · n_kv · d · 2 bytes (bf16)."""
        return 2 * self.num_hidden_layers * self.num_key_value_heads * self.head_dim * BF16_BYTES

    @property
    def attention_flops_per_cached_token(self) -> int:
        """FLOPs per cached token per scored position: 4 · L · n_q · d (QKᵀ and PV, 2 FLOPs per MAC)."""
        return 4 * self.num_hidden_layers * self.num_attention_heads * self.head_dim

    # --- the pass kernel by kernel (the per-kernel and calibrated cost models) -------------

    @property
    def layer_gemms(self) -> tuple[tuple[str, int, int], ...]:
        """Each layer's matrix multiplications as (group, in_features, out_features).

        q, k and v projections fused into one GEMM and the o projection ("projections"); gate
        and up fused, then down ("mlp"): the layouts vLLM's Qwen3 and Llama implementations run
        (QKVParallelLinear, MergedColumnParallelLinear). Weights are in × out bf16 values.
        """
        h, d, i = self.hidden_size, self.head_dim, self.intermediate_size
        qkv = (self.num_attention_heads + 2 * self.num_key_value_heads) * d
        return (
            ("projections", h, qkv),
            ("projections", self.num_attention_heads * d, h),
            ("mlp", h, 2 * i),
            ("mlp", i, h),
        )

    @property
    def gemm_weight_bytes(self) -> int:
        """Bytes of the weights a pass streams through its matrix multiplications: every layer's
        GEMMs and the output head (bf16). The embedding table is gathered, not streamed: an untied
        model's pass reads fewer bytes than its weights (per_kernel.py)."""
        per_layer = sum(i * o for _, i, o in self.layer_gemms)
        head_in, head_out = self.lm_head_shape
        return BF16_BYTES * (self.num_hidden_layers * per_layer + head_in * head_out)

    @property
    def lm_head_shape(self) -> tuple[int, int]:
        """(in, out) of the output head: hidden size → vocabulary (the tied embedding when tied)."""
        return self.hidden_size, self.vocab_size

    @property
    def kv_bytes_per_token_per_layer(self) -> int:
        """KV-cache bytes one cached token holds in one layer: 2 · n_kv · d · 2 (bf16 K and V)."""
        return 2 * self.num_key_value_heads * self.head_dim * BF16_BYTES
