"""Model input: a malformed hardware or architecture entry is refused with entry and field named."""
import copy

import pytest

from specmodel import ModelInputError, default_catalog, load_catalog
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
    ("former_hf_ids", "Qwen/Qwen3-0.6B-Old"),
])
def test_malformed_model_entry_names_entry_and_field(field, value):
    with pytest.raises(ModelInputError) as e:
        load_catalog(model_entries=broken_model(field, value))
    assert e.value.field == f"model[qwen3-0.6b].{field}"


@pytest.mark.parametrize("field,value", [
    ("peak_flops_per_s", 0), ("memory_capacity_bytes", -1), ("memory_efficiency", 1.2),
    ("compute_efficiency", ...), ("peak_memory_bandwidth_bytes_per_s", float("nan")), ("label", 5), ("source", ""),
    ("source_url", ...), ("source_url", "http://example.com/"), ("source_url", "NVIDIA datasheet"),
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


# --- typical acceptance per drafter and task --------------------------------------------------

from specmodel.acceptance import mean_acceptance_length  # noqa: E402
from specmodel.typical_acceptance import TASKS, TYPICAL_ACCEPTANCE_ENTRIES, solve_alpha  # noqa: E402


@pytest.mark.parametrize("length, gamma, shape", [(1.40, 3, "same"), (2.04, 3, "same"), (2.6, 4, "falling"),
                                                  (1.01, 1, "same")])
def test_solve_alpha_gives_back_the_measured_length(length, gamma, shape):
    alpha = solve_alpha(length, gamma, shape)
    assert 0 < alpha < 1
    assert float(mean_acceptance_length(gamma, alpha, shape, gamma)) == pytest.approx(length, abs=1e-9)


def test_solve_alpha_refuses_a_length_no_alpha_gives():
    with pytest.raises(ValueError, match="between 1 and 4"):
        solve_alpha(4.2, 3, "same")
    with pytest.raises(ValueError, match="at most"):
        solve_alpha(3.9, 3, "falling")  # the falling shape tops out below γ + 1


def test_the_measured_ngram_acceptance_solves_to_the_grid_values_the_site_uses():
    typical = default_catalog().typical_acceptance["ngram"]["qwen3-8b"]
    # Liu et al. 2026's traces, γ = 3: mean acceptance length 1.40 (ShareGPT), 2.04 (InstructCoder)
    assert typical["chat"].alpha == pytest.approx(0.304, abs=1e-3)
    assert typical["code-editing"].alpha == pytest.approx(0.601, abs=1e-3)
    assert typical["chat"].mean_acceptance_length == 1.40 and typical["chat"].measured_gamma == 3
    blocks = default_catalog().typical_acceptance["qwen3-0.6b"]
    assert {t.basis for tasks in blocks.values() for t in tasks.values()} == {"assumed"}


# EAGLE-3 heads: mean acceptance length as published (AngelSlim's vLLM table at γ = 2: MT-bench,
# mean of four sets, HumanEval; vLLM issue #20780 at γ = 3 for Llama-3.1-8B).
PUBLISHED_EAGLE3 = {
    "qwen3-8b": (2, 1.97, 1.99, 1.97), "qwen3-14b": (2, 1.74, 1.79, 1.76), "qwen3-32b": (2, 1.86, 1.91, 1.86),
    "qwen3-30b-a3b": (2, 2.01, 2.04, 2.02), "llama-3.1-8b-instruct": (3, 2.79, 2.79, 2.79),
    "llama-3.3-70b-instruct": (3, 2.79, 2.79, 2.79),
}


@pytest.mark.parametrize("target", PUBLISHED_EAGLE3)
def test_eagle3_acceptance_gives_back_the_published_mean_acceptance_length(target):
    gamma, *lengths = PUBLISHED_EAGLE3[target]
    tasks = default_catalog().typical_acceptance["eagle3"][target]
    for task, length in zip(("chat", "summarisation", "code-editing"), lengths, strict=True):
        e = tasks[task]
        # the 70B's head is the 8B's measurement carried over, and says so
        basis = "measured on another target" if target == "llama-3.3-70b-instruct" else "measured"
        assert (e.basis, e.measured_gamma, e.mean_acceptance_length, e.acceptance) == (basis, gamma, length, "falling")
        assert float(mean_acceptance_length(gamma, e.alpha, "falling", gamma)) == pytest.approx(length, abs=1e-9)


def _entries(**edit):
    entries = {d: {t: {task: dict(e) for task, e in tasks.items()} for t, tasks in blocks.items()}
               for d, blocks in TYPICAL_ACCEPTANCE_ENTRIES.items()}
    for path, value in edit.items():
        drafter, target, task, field = path.split("__")
        if value is None:
            entries[drafter][target][task].pop(field)
        else:
            entries[drafter][target][task][field] = value
    return entries


@pytest.mark.parametrize("edit, where, allowed", [
    ({"ngram__*__chat__basis": "guessed"}, "typical_acceptance[ngram][*][chat].basis", "measured, measured on another target or assumed"),
    ({"ngram__*__chat__acceptance": "upwards"}, "typical_acceptance[ngram][*][chat].acceptance", "falling, same, rising"),
    ({"ngram__*__chat__mean_acceptance_length": 9.0}, "typical_acceptance[ngram][*][chat].mean_acceptance_length",
     "between 1 and 4"),
    ({"ngram__*__chat__source": None}, "typical_acceptance[ngram][*][chat].source", "every field of"),
    ({"qwen3-0.6b__*__chat__alpha": 1.5}, "typical_acceptance[qwen3-0.6b][*][chat].alpha", "between 0 and 1"),
    ({"qwen3-0.6b__*__chat__colour": "red"}, "typical_acceptance[qwen3-0.6b][*][chat].colour", "unknown field"),
    ({"eagle3__qwen3-8b__chat__measured_gamma": 0}, "typical_acceptance[eagle3][qwen3-8b][chat].measured_gamma",
     "a whole number"),
])
def test_a_bad_typical_acceptance_entry_names_the_field(edit, where, allowed):
    with pytest.raises(ModelInputError) as e:
        load_catalog(typical_acceptance_entries=_entries(**edit))
    assert where in str(e.value) and allowed in str(e.value)


def test_every_drafter_needs_every_task_for_every_target_it_serves():
    entries = _entries()
    del entries["ngram"]["*"]["chat"]
    with pytest.raises(ModelInputError, match=r"typical_acceptance\[ngram\]\[\*\]\[chat\].*missing"):
        load_catalog(typical_acceptance_entries=entries)
    entries = _entries()
    del entries["qwen3-1.7b"]
    with pytest.raises(ModelInputError, match=r"typical_acceptance\[qwen3-1.7b\].*missing"):
        load_catalog(typical_acceptance_entries=entries)
    entries = _entries()
    del entries["eagle3"]["qwen3-32b"]
    with pytest.raises(ModelInputError, match=r"typical_acceptance\[eagle3\]\[qwen3-32b\].*missing"):
        load_catalog(typical_acceptance_entries=entries)
    entries = _entries()
    entries["eagle3"]["qwen3-99b"] = entries["eagle3"]["qwen3-8b"]
    with pytest.raises(ModelInputError, match=r"typical_acceptance\[eagle3\]\[qwen3-99b\].*not a target"):
        load_catalog(typical_acceptance_entries=entries)
    drafters = {k: v for k, v in DRAFTER_ENTRIES.items() if k != "qwen3-1.7b"}
    with pytest.raises(ModelInputError, match="not a drafter of the catalog"):
        load_catalog(drafter_entries=drafters, typical_acceptance_entries=_entries())
    assert set(TASKS) == {"chat", "summarisation", "code-editing"}


def test_every_drafter_has_its_own_colour():
    """The decision map tells drafters apart by colour alone."""
    colours = [d.colour for d in default_catalog().drafters.values()]
    assert len(set(colours)) == len(colours)
