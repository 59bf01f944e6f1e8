"""Model input: a malformed hardware or architecture entry is refused with entry and field named."""
import copy

import pytest

from specmodel import ModelInputError, load_catalog
from specmodel.catalog import DRAFTER_ENTRIES, GPU_ENTRIES, MODEL_ENTRIES, default_engine_entries


def test_sizes_come_from_config_fields():
    c = load_catalog()
    assert c.targets["qwen3-8b"].params == 8_190_735_360
    assert c.drafters["qwen3-0.6b"].architecture.params == 596_049_920
    assert c.drafters["qwen3-1.7b"].architecture.params == 1_720_574_976
    assert c.targets["qwen3-8b"].kv_bytes_per_token == 144 * 1024
    assert c.drafters["qwen3-1.7b"].kv_bytes_per_token == 112 * 1024
    assert c.drafters["ngram"].weight_bytes == 0


def broken_model(field, value):
    entries = copy.deepcopy(MODEL_ENTRIES)
    if value is ...:
        del entries["qwen3-0.6b"][field]
    else:
        entries["qwen3-0.6b"][field] = value
    return entries


@pytest.mark.parametrize("field,value", [
    ("hidden_size", 0), ("hidden_size", -1024), ("num_hidden_layers", ...), ("head_dim", "128"),
    ("vocab_size", 1.5), ("tie_word_embeddings", "yes"), ("num_key_value_heads", 3), ("label", ""),
])
def test_malformed_model_entry_names_entry_and_field(field, value):
    with pytest.raises(ModelInputError) as e:
        load_catalog(model_entries=broken_model(field, value))
    assert e.value.field == f"model[qwen3-0.6b].{field}"


@pytest.mark.parametrize("field,value", [
    ("peak_flops_per_s", 0), ("memory_capacity_bytes", -1), ("memory_efficiency", 1.2),
    ("compute_efficiency", ...), ("peak_memory_bandwidth_bytes_per_s", float("nan")), ("label", 5), ("source", ""),
])
def test_malformed_gpu_entry_names_entry_and_field(field, value):
    entries = copy.deepcopy(GPU_ENTRIES)
    if value is ...:
        del entries["h100-sxm"][field]
    else:
        entries["h100-sxm"][field] = value
    with pytest.raises(ModelInputError) as e:
        load_catalog(gpu_entries=entries)
    assert e.value.field == f"gpu[h100-sxm].{field}"


def test_unknown_field_and_unknown_draft_model():
    entries = copy.deepcopy(MODEL_ENTRIES)
    entries["qwen3-8b"]["rope_theta"] = 1e6
    with pytest.raises(ModelInputError, match=r"model\[qwen3-8b\]\.rope_theta"):
        load_catalog(model_entries=entries)
    drafters = copy.deepcopy(DRAFTER_ENTRIES)
    drafters["qwen3-0.6b"]["model"] = "qwen3-99b"
    with pytest.raises(ModelInputError, match=r"drafter\[qwen3-0.6b\]\.model"):
        load_catalog(drafter_entries=drafters)


@pytest.mark.parametrize("field,value", [("kind", "medusa"), ("colour", ...), ("label", ""), ("prompt_lookup_max", 0)])
def test_malformed_drafter_entry_names_entry_and_field(field, value):
    drafters = copy.deepcopy(DRAFTER_ENTRIES)
    if value is ...:
        del drafters["ngram"][field]
    else:
        drafters["ngram"][field] = value
    with pytest.raises(ModelInputError) as e:
        load_catalog(drafter_entries=drafters)
    assert e.value.field == f"drafter[ngram].{field}"


def test_an_engine_constant_without_a_source_is_refused():
    engines = copy.deepcopy(default_engine_entries())
    engines["vllm"]["constants"]["layer_launch_s"]["source"] = " "
    with pytest.raises(ModelInputError) as e:
        load_catalog(engine_entries=engines)
    assert e.value.field == "engine[vllm].layer_launch_s.source"


@pytest.mark.parametrize("constant,value", [("flop_efficiency", 1.5), ("step_overhead_s", -1e-3),
                                            ("layer_launch_s", float("inf")), ("step_overhead_s", ...)])
def test_a_bad_engine_constant_is_refused(constant, value):
    engines = copy.deepcopy(default_engine_entries())
    if value is ...:
        del engines["sglang"]["constants"][constant]
    else:
        engines["sglang"]["constants"][constant]["value"] = value
    with pytest.raises(ModelInputError) as e:
        load_catalog(engine_entries=engines)
    assert e.value.field == f"engine[sglang].{constant}"


def test_the_catalog_is_a_parameter_a_new_gpu_is_one_entry():
    # A throwaway GPU: half an H100's bandwidth. Everything that takes the catalog honours it.
    from specmodel import State, evaluate

    gpus = {**GPU_ENTRIES, "half-h100": {**GPU_ENTRIES["h100-sxm"], "label": "half an H100",
                                         "peak_memory_bandwidth_bytes_per_s": 3.35e12 / 2}}
    catalog = load_catalog(gpu_entries=gpus)
    slow = evaluate(State(gpu="half-h100", cost_model="whole-pass"), catalog=catalog)
    fast = evaluate(State(cost_model="whole-pass"), catalog=catalog)
    assert slow.plain_tokens_per_s == pytest.approx(fast.plain_tokens_per_s / 2, rel=0.02)
    with pytest.raises(ModelInputError, match="gpu"):
        evaluate(State(gpu="half-h100"))  # not in the built-in catalog


def test_the_catalog_is_a_parameter_a_drafter_option_is_honoured():
    from specmodel import State
    from specmodel.vllm import speculative_config

    drafters = copy.deepcopy(DRAFTER_ENTRIES)
    drafters["ngram"]["prompt_lookup_max"] = 7
    catalog = load_catalog(drafter_entries=drafters)
    assert speculative_config(State(drafter="ngram"), catalog)["prompt_lookup_max"] == 7
