"""Model input: a malformed hardware or architecture entry is refused with entry and field named."""
import copy

import pytest

from specmodel import ModelInputError, build_catalog
from specmodel.catalog import DRAFTER_ENTRIES, GPU_ENTRIES, MODEL_ENTRIES


def test_sizes_come_from_config_fields():
    c = build_catalog()
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
        build_catalog(model_entries=broken_model(field, value))
    assert e.value.field == f"model[qwen3-0.6b].{field}"


@pytest.mark.parametrize("field,value", [
    ("peak_flops_per_s", 0), ("memory_capacity_bytes", -1), ("memory_efficiency", 1.2),
    ("compute_efficiency", ...), ("peak_memory_bandwidth_bytes_per_s", float("nan")), ("label", 5),
])
def test_malformed_gpu_entry_names_entry_and_field(field, value):
    entries = copy.deepcopy(GPU_ENTRIES)
    if value is ...:
        del entries["h100-sxm"][field]
    else:
        entries["h100-sxm"][field] = value
    with pytest.raises(ModelInputError) as e:
        build_catalog(gpu_entries=entries)
    assert e.value.field == f"gpu[h100-sxm].{field}"


def test_unknown_field_and_unknown_draft_model():
    entries = copy.deepcopy(MODEL_ENTRIES)
    entries["qwen3-8b"]["rope_theta"] = 1e6
    with pytest.raises(ModelInputError, match=r"model\[qwen3-8b\]\.rope_theta"):
        build_catalog(model_entries=entries)
    drafters = copy.deepcopy(DRAFTER_ENTRIES)
    drafters["qwen3-0.6b"]["model"] = "qwen3-99b"
    with pytest.raises(ModelInputError, match=r"drafter\[qwen3-0.6b\]\.model"):
        build_catalog(drafter_entries=drafters)
