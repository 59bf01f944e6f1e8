"""The catalog against its sources: each GPU's datasheet figures, each model's config.json and
published parameter count, each EAGLE-3 head's published config (tests/data/catalog-sources.json,
transcribed by hand); the mixture of experts' expected experts against a simulation of top-k
routing; the tensor-parallel all-reduce bytes against a ring all-reduce counted step by step."""
import json

import numpy as np
import pytest

from paths import DATA
from specmodel import default_catalog, evaluate
from specmodel.breakdown import plain_step_breakdown
from specmodel.costs.base import allreduce_bytes_sent

SOURCES = json.loads((DATA / "catalog-sources.json").read_text())
CATALOG = default_catalog()


@pytest.mark.parametrize("key", [k for k in SOURCES["gpus"]])
def test_each_gpu_matches_its_datasheet(key):
    printed, gpu = SOURCES["gpus"][key], CATALOG.gpus[key]
    dense_tflops = printed.get("bf16_tflops_dense", printed.get("bf16_tflops_with_sparsity", 0) / 2)
    # rel 1e-3: NVIDIA prints 1,979 with sparsity for H100/H200, i.e. 989.5 dense; the catalog keeps 989
    assert gpu.peak_flops_per_s == pytest.approx(dense_tflops * 1e12, rel=1e-3)
    assert gpu.peak_memory_bandwidth_bytes_per_s == pytest.approx(printed["memory_bandwidth_tb_per_s"] * 1e12)
    assert gpu.memory_capacity_bytes == pytest.approx(printed["memory_gb"] * 1e9)
    if "interconnect_links" in printed:
        one_way = printed["interconnect_links"] * printed["interconnect_link_gb_per_s_bidirectional"] / 2
    else:
        one_way = printed["interconnect_gb_per_s_bidirectional"] / 2
    assert gpu.interconnect_bytes_per_s == pytest.approx(one_way * 1e9)
    if "system_gpus" in printed:  # per-GPU figures of an 8-GPU system: the system's / 8
        n = printed["system_gpus"]
        assert gpu.peak_flops_per_s == pytest.approx(printed["system_bf16_pflops_with_sparsity"] * 1e15 / 2 / n)
        assert gpu.memory_capacity_bytes == pytest.approx(printed["system_memory_gb"] * 1e9 / n)
        assert gpu.peak_memory_bandwidth_bytes_per_s == pytest.approx(printed["system_memory_bandwidth_tb_per_s"] * 1e12 / n)
    assert gpu.source and gpu.label


def test_every_gpu_of_the_catalog_has_a_transcribed_source():
    assert set(CATALOG.gpus) == set(SOURCES["gpus"])


@pytest.mark.parametrize("key", [k for k in SOURCES["models"]])
def test_each_model_matches_its_config_json_and_its_published_size(key):
    source, model = SOURCES["models"][key], CATALOG.models[key]
    for field, value in source["config"].items():
        assert getattr(model, field) == value, field
    if "head_dim" not in source["config"]:  # absent from Llama's config: hidden / heads
        assert model.head_dim == source["config"]["hidden_size"] // source["config"]["num_attention_heads"]
    # the count is computed from the config (never typed) and agrees with the model card to the
    # digits it prints (cards round or cut: Qwen3-8B's 8.19 B is "8.2B", Llama-3.2-1B's 1.236 B "1.23B")
    unit = 10.0 ** -source["published_digits"]
    assert abs(model.params / 1e9 - source["published_params_billion"]) < 0.6 * unit
    if "published_active_params_billion" in source:
        assert abs(model.active_params / 1e9 - source["published_active_params_billion"]) < 0.6 * unit


def test_exact_parameter_counts_of_three_models():
    # Qwen3-8B's card: 8.2 B, 6.95 B without embeddings; Llama-3.1-8B: 8,030,261,248 in safetensors
    assert CATALOG.models["qwen3-8b"].params == 8_190_735_360
    assert CATALOG.models["llama-3.1-8b-instruct"].params == 8_030_261_248
    assert CATALOG.models["qwen3-30b-a3b"].params == 30_532_122_624


@pytest.mark.parametrize("key", [k for k in SOURCES["eagle3_heads"] if not k.startswith("_")])
def test_each_eagle3_head_matches_its_published_config(key):
    source, head = SOURCES["eagle3_heads"][key], CATALOG.models[key]
    for field, value in source.items():
        assert getattr(head, "vocab_size" if field == "draft_vocab_size" else field) == value, field
    assert head.is_eagle3_head and head.num_hidden_layers == 1
    target = next(t for t, h in CATALOG.drafters["eagle3"].heads.items() if getattr(h, "key", h) == key)
    # the head reads three of its target's hidden states (fc: 3·h_target → h)
    assert head.eagle3_target_hidden_size == CATALOG.targets[target].hidden_size


def test_every_catalog_model_has_a_transcribed_source():
    assert set(CATALOG.models) == set(SOURCES["models"]) | {k for k in SOURCES["eagle3_heads"] if not k.startswith("_")}


# --- a mixture of experts: distinct experts a pass touches ----------------------------------------


def _simulated_distinct_experts(experts, top_k, tokens, trials, rng):
    # each token routes to top_k distinct experts, uniformly at random; count the union
    counts = np.empty(trials)
    for t in range(trials):
        picks = np.argsort(rng.random((tokens, experts)), axis=1)[:, :top_k]
        counts[t] = np.unique(picks).size
    return counts


@pytest.mark.parametrize("tokens", [1, 2, 4, 8, 16, 64, 256])
def test_expected_experts_touched_matches_a_simulation_of_top_k_routing(tokens):
    moe = CATALOG.targets["qwen3-30b-a3b"]
    rng = np.random.default_rng(tokens)
    counts = _simulated_distinct_experts(moe.num_experts, moe.num_experts_per_tok, tokens, 400, rng)
    # within four standard errors of the simulated mean
    assert float(moe.expected_experts_touched(tokens)) == pytest.approx(
        counts.mean(), abs=max(4 * counts.std(ddof=1) / np.sqrt(counts.size), 1e-4))


def test_verifying_more_positions_touches_more_experts():
    moe = CATALOG.targets["qwen3-30b-a3b"]
    one, four = (float(moe.expected_experts_touched(t)) for t in (1, 4))
    assert one == 8 and 28 < four < 32  # 128·(1 − (15/16)^4) = 29.1
    assert float(moe.expected_experts_touched(1024)) == pytest.approx(128, abs=1e-6)


def test_a_moe_pass_reads_the_experts_it_touches():
    # whole-pass: the bytes of a pass grow with the experts touched; a dense pass's do not
    at = dict(target="qwen3-30b-a3b", gpu="h100-sxm", tp=1, cost_model="whole-pass", context=1)
    moe = CATALOG.targets["qwen3-30b-a3b"]
    plain1 = evaluate(**at, batch=1, drafter="ngram", gamma=1)
    verify = evaluate(**at, batch=1, drafter="ngram", gamma=3)
    extra_experts = float(moe.expected_experts_touched(4) - moe.expected_experts_touched(2))
    assert verify.verify_bytes - plain1.verify_bytes == pytest.approx(
        moe.num_hidden_layers * extra_experts * moe.experts_bytes_per_layer, rel=0.02)


# --- tensor parallelism: the all-reduces -----------------------------------------------------------


def _ring_allreduce_bytes_sent_per_gpu(message_bytes, gpus):
    # reduce-scatter then all-gather, each gpus − 1 steps; in each step every GPU sends one of
    # its gpus chunks to its neighbour
    chunk = message_bytes / gpus
    sent = 0.0
    for _phase in ("reduce-scatter", "all-gather"):
        for _step in range(gpus - 1):
            sent += chunk
    return sent


@pytest.mark.parametrize("target", ["qwen3-8b", "llama-3.3-70b-instruct", "qwen3-30b-a3b"])
@pytest.mark.parametrize("tp", [1, 2, 4, 8])
@pytest.mark.parametrize("num_seqs,num_positions", [(1, 1), (64, 4), (256, 1)])
def test_allreduce_bytes_are_two_ring_allreduces_per_layer(target, tp, num_seqs, num_positions):
    model, gpu = CATALOG.targets[target], CATALOG.gpu_group("h100-sxm", tp)
    message = num_seqs * num_positions * model.hidden_size * 2  # bf16 activations
    expected = 2 * model.num_hidden_layers * _ring_allreduce_bytes_sent_per_gpu(message, tp)
    assert float(allreduce_bytes_sent(model, gpu, num_seqs, num_positions)) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("cost_model", ["whole-pass", "per-kernel", "calibrated"])
def test_a_tensor_parallel_step_pays_its_allreduces_over_the_interconnect(cost_model):
    # a plain step's all-reduce part is the bytes each GPU sends over its one-way bandwidth, plus
    # the calibrated model's per-all-reduce latency; nothing on one GPU
    cost, target = CATALOG.cost_model(cost_model, "vllm"), CATALOG.targets["qwen3-8b"]
    latency = CATALOG.engines["vllm"].constants.get("allreduce_latency_s", 0.0) if cost_model == "calibrated" else 0.0
    for gpu_key in ("h100-sxm", "l40s"):
        one = plain_step_breakdown(cost, target, CATALOG.gpu_group(gpu_key, 1), 64, 2048)
        assert float(one["target_allreduce"]) == 0
        two = plain_step_breakdown(cost, target, CATALOG.gpu_group(gpu_key, 2), 64, 2048)
        sent = 2 * target.num_hidden_layers * _ring_allreduce_bytes_sent_per_gpu(64 * target.hidden_size * 2, 2)
        expected = sent / CATALOG.gpus[gpu_key].interconnect_bytes_per_s + 2 * target.num_hidden_layers * latency
        assert float(two["target_allreduce"]) == pytest.approx(expected, rel=1e-9)
