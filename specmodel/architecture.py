"""Decoder-only transformer architectures, sized from their Hugging Face ``config.json`` fields.

Parameter counts, weight bytes and KV-cache bytes per token are derived from the config fields
here, never typed in, so a new model is one config entry. Three shapes share the class: a dense
decoder (Qwen3, Llama), a mixture-of-experts decoder (``num_experts`` > 0: every layer's MLP is
``num_experts`` SwiGLU experts of width ``moe_intermediate_size``, ``num_experts_per_tok`` of them
per token, as Qwen3-MoE), and an EAGLE-3 draft head (``eagle3_target_hidden_size`` > 0: one
decoder layer whose q/k/v read 2·h, an fc layer fusing three of the target's hidden states, its
own lm_head over a reduced draft vocabulary, and the target's embedding, shared; Li et al. 2025,
arXiv 2503.01840, and vLLM's ``llama_eagle3.py``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .entries import check_fields, from_dict
from .errors import ModelInputError

BF16_BYTES = 2  # bytes per weight and per cached K/V element in bf16


@dataclass(frozen=True)
class Architecture:
    """A decoder with GQA attention (q/k RMSNorm when ``qk_norm``, as Qwen3; none, as Llama),
    SwiGLU MLPs and no biases.

    Field names are the Hugging Face ``config.json`` keys (``hidden_size`` = h,
    ``intermediate_size`` = I, ``num_hidden_layers`` = L, ``num_attention_heads`` = n_q,
    ``num_key_value_heads`` = n_kv, ``head_dim`` = d, ``vocab_size`` = V — the draft vocabulary
    for an EAGLE-3 head —, ``num_experts`` = E, ``num_experts_per_tok`` = k,
    ``moe_intermediate_size`` = I_e), plus ``key`` (CLI name), ``label``, ``hf_id`` (the
    repository id vLLM's ``--speculative-config`` takes), ``former_hf_ids`` (ids the repository
    had before a rename, which older logs and links still give: Meta renamed
    "meta-llama/Meta-Llama-3.1-8B-Instruct" to "meta-llama/Llama-3.1-8B-Instruct") and
    ``eagle3_target_hidden_size`` (the target's h, for a head).

    Raises ModelInputError naming ``model[<key>].<field>`` for a missing, mistyped or
    non-positive size, a former id that is not a non-empty string, or KV heads that do not divide
    the query heads.
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
    qk_norm: bool = True
    num_experts: int = 0
    num_experts_per_tok: int = 0
    moe_intermediate_size: int = 0
    eagle3_target_hidden_size: int = 0
    former_hf_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_fields(self, "model")
        object.__setattr__(self, "former_hf_ids", tuple(self.former_hf_ids))  # a JSON list, hashable
        if self.num_experts and not (self.num_experts_per_tok and self.moe_intermediate_size):
            raise ModelInputError(f"model[{self.key}].num_experts_per_tok", "missing for a mixture of experts",
                                  "num_experts_per_tok and moe_intermediate_size with num_experts")
        if self.num_experts_per_tok > self.num_experts:
            raise ModelInputError(f"model[{self.key}].num_experts_per_tok",
                                  f"{self.num_experts_per_tok} is more than num_experts={self.num_experts}",
                                  "at most num_experts")
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
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def is_eagle3_head(self) -> bool:
        return self.eagle3_target_hidden_size > 0

    def _attention_params(self) -> int:
        h, d = self.hidden_size, self.head_dim
        q_in = self.qkv_input_size
        return (q_in * self.num_attention_heads * d + 2 * q_in * self.num_key_value_heads * d
                + self.num_attention_heads * d * h)

    def _expert_params(self) -> int:
        """One expert's SwiGLU weights (gate, up, down)."""
        return 3 * self.hidden_size * self.moe_intermediate_size

    def _norm_params(self) -> int:
        # the layer's RMSNorms (an EAGLE-3 head also normalises the fused hidden state), q/k norms
        norms = (3 if self.is_eagle3_head else 2) * self.hidden_size
        return norms + (2 * self.head_dim if self.qk_norm else 0)

    def _layer_params(self, experts_per_token: int | None = None) -> int:
        """One layer's parameters; with ``experts_per_token``, only that many experts (active)."""
        h = self.hidden_size
        if self.is_moe:
            n = self.num_experts if experts_per_token is None else experts_per_token
            mlp = h * self.num_experts + n * self._expert_params()  # router, experts
        else:
            mlp = 3 * h * self.intermediate_size
        return self._attention_params() + mlp + self._norm_params()

    def _outside_layers(self) -> int:
        """Embedding (and untied head), final norm; a head: fc and its own lm_head, no embedding."""
        h = self.hidden_size
        if self.is_eagle3_head:
            return 3 * self.eagle3_target_hidden_size * h + h * self.vocab_size + h
        return self.vocab_size * h * (1 if self.tie_word_embeddings else 2) + h

    @property
    def params(self) -> int:
        """Parameter count.

        Per layer: q, k, v, o projections (h·n_q·d + 2·h·n_kv·d + n_q·d·h; an EAGLE-3 head's q,
        k, v read 2·h), the MLP (3·h·I; a mixture of experts: a router h·E and E experts of
        3·h·I_e), two RMSNorms (three in a head) and the q/k norms (2·d, Qwen3). Then the
        embedding and the untied LM head (V·h each, one when tied) and the final norm; a head has
        an fc (3·h_target·h) and its lm_head over the draft vocabulary instead, and shares the
        target's embedding. No biases. Qwen3-8B: 8,190,735,360; Qwen3-30B-A3B: 30,532,122,624;
        Llama-3.1-8B: 8,030,261,248 (tests/test_catalog.py, against the model cards).
        """
        return self.num_hidden_layers * self._layer_params() + self._outside_layers()

    @property
    def active_params(self) -> int:
        """Parameters one token's forward pass multiplies by: all of a dense model's; for a
        mixture of experts, the router and only k experts per layer (Qwen3-30B-A3B: 3.35 B)."""
        if not self.is_moe:
            return self.params
        return self.num_hidden_layers * self._layer_params(self.num_experts_per_tok) + self._outside_layers()

    def expected_experts_touched(self, tokens):
        """Expected distinct experts one layer's router sends ``tokens`` tokens to: each token
        picks k of E experts, uniformly (the stated assumption; real routers are skewed, which
        touches fewer), so an expert is missed by all with probability (1 − k/E)^T:

            E[distinct] = E · (1 − (1 − k/E)^T)

        tests/test_catalog.py checks it against a Monte Carlo simulation of top-k routing."""
        import numpy as np

        t = np.asarray(tokens, dtype=float)
        e, k = self.num_experts, self.num_experts_per_tok
        return e * (1.0 - (1.0 - k / e) ** t)

    @property
    def weight_bytes(self) -> int:
        """Bytes of weights in bf16: 2 · params."""
        return BF16_BYTES * self.params

    @property
    def qkv_input_size(self) -> int:
        """What the q/k/v projections read: h, or 2·h in an EAGLE-3 head (the token's embedding
        beside the fused hidden state)."""
        return 2 * self.hidden_size if self.is_eagle3_head else self.hidden_size

    @property
    def kv_bytes_per_token(self) -> int:
        """KV-cache bytes per cached token: 2 (K and V) · L · n_kv · d · 2 bytes (bf16)."""
        return 2 * self.num_hidden_layers * self.num_key_value_heads * self.head_dim * BF16_BYTES

    @property
    def experts_bytes_per_layer(self) -> int:
        """Bytes of one expert's weights (bf16): what each distinct expert a pass touches reads."""
        return BF16_BYTES * sum(i * o for _, i, o in self.expert_gemms)

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
        attention = (("projections", self.qkv_input_size, qkv), ("projections", self.num_attention_heads * d, h))
        if self.is_moe:  # the router; the experts are expert_gemms
            return attention + (("router", h, self.num_experts),)
        return attention + (("mlp", h, 2 * i), ("mlp", i, h))

    @property
    def expert_gemms(self) -> tuple[tuple[str, int, int], ...]:
        """One expert's matrix multiplications (gate and up fused, then down); none when dense."""
        if not self.is_moe:
            return ()
        h, i = self.hidden_size, self.moe_intermediate_size
        return (("experts", h, 2 * i), ("experts", i, h))

    @property
    def pass_gemms(self) -> tuple[tuple[str, int, int], ...]:
        """The matrix multiplications once per pass: the output head, and a head's fc (which
        fuses three of the target's hidden states, 3·h_target → h)."""
        head = (("output head", *self.lm_head_shape),)
        if self.is_eagle3_head:
            return (("fc", 3 * self.eagle3_target_hidden_size, self.hidden_size),) + head
        return head

    @property
    def gemm_weight_bytes(self) -> int:
        """Bytes of the weights a pass streams through its matrix multiplications: every layer's
        GEMMs and the output head (bf16). The embedding table is gathered, not streamed: an untied
        model's pass reads fewer bytes than its weights (per_kernel.py)."""
        per_layer = sum(i * o for _, i, o in self.layer_gemms)
        per_layer += self.num_experts * sum(i * o for _, i, o in self.expert_gemms)
        return BF16_BYTES * (self.num_hidden_layers * per_layer + sum(i * o for _, i, o in self.pass_gemms))

    @property
    def embedding_bytes(self) -> int:
        """Bytes of the input embedding table, V·h in bf16, which a pass gathers rows of rather
        than streams (per_kernel.py); 0 for an EAGLE-3 head, which shares the target's."""
        return 0 if self.is_eagle3_head else BF16_BYTES * self.vocab_size * self.hidden_size

    @property
    def lm_head_shape(self) -> tuple[int, int]:
        """(in, out) of the output head: hidden size → vocabulary (the tied embedding when tied)."""
        return self.hidden_size, self.vocab_size

    @property
    def kv_bytes_per_token_per_layer(self) -> int:
        """KV-cache bytes one cached token holds in one layer: 2 · n_kv · d · 2 (bf16 K and V)."""
        return 2 * self.num_key_value_heads * self.head_dim * BF16_BYTES
