"""The catalog as the model page lists it: every GPU, model and drafter with its figures and
source, the configurations the site offers, and the rule by which the calibrated constants are
carried to them."""
from __future__ import annotations

from specmodel import FIELDS, Catalog, State, evaluate
from specmodel.costs import COST_MODELS, DEFAULT_COST_MODEL
from specmodel.catalog import WEIGHT_SHARE
from specmodel.extrapolation import extrapolation_rule

from .axes import LABELS, configurations

ROLES = {"target": "target", "draft": "draft model", "head": "EAGLE-3 head"}


def _role(catalog: Catalog, key: str, model) -> str:
    if key in catalog.targets:
        return ROLES["target"]
    return ROLES["head"] if model.is_eagle3_head else ROLES["draft"]


def _best_at_one_sequence(catalog: Catalog, drafter: str, target: str) -> dict:
    """A pairing's best speedup at one sequence (the default context, the default GPU and the
    GPUs the site gives the target) over the γ grid at the grid's highest α, by cost model: each
    ideal one's ({"ideal": [{label, speedup, gamma}]}) and the calibrated one's ({"calibrated":
    speedup, "gamma": γ, "calibrated_label"}), and that α ("alpha"). Found by a cold read: the page said such a pairing "cannot pay" at one
    sequence, which holds for the ideal models only."""
    gpu = FIELDS["gpu"].default
    tp = catalog.tensor_parallel_for(gpu, target) or FIELDS["tp"].default
    alpha = max(FIELDS["alpha"].grid)

    def best(cost_model: str) -> tuple[float, int]:
        return max((evaluate(State(gpu=gpu, target=target, tp=tp, drafter=drafter, batch=1, gamma=g, alpha=alpha,
                                   cost_model=cost_model), catalog=catalog).speedup, g) for g in FIELDS["gamma"].grid)

    speedup, gamma = best(DEFAULT_COST_MODEL)
    # each ideal model's own best and its γ (found by a cold read: one figure and one γ for two);
    # the page names each by its key, as the list atop the model page and --cost-model do (found
    # by a cold read: the breakdown figure's "ideal, kernel by kernel" there, in no menu)
    ideal = [{"label": LABELS["cost_model"][m], "key": m, "speedup": s, "gamma": g}
             for m in COST_MODELS if m != DEFAULT_COST_MODEL for s, g in [best(m)]]
    # the GPUs it is priced on, said beside the figures (found by a cold read: 0.68× … 1.21× with no
    # word of the two H100s)
    return {"ideal": ideal, "calibrated": speedup, "gamma": gamma, "alpha": alpha,
            "gpus": catalog.gpu_group(gpu, tp).label, "context": FIELDS["context"].default,
            "calibrated_label": LABELS["cost_model"][DEFAULT_COST_MODEL], "calibrated_key": DEFAULT_COST_MODEL}


def catalog_values(catalog: Catalog) -> dict:
    gpus = [{"key": k, "label": g.label, "source": g.source, "source_url": g.source_url,
             "bandwidth_tb_per_s": g.peak_memory_bandwidth_bytes_per_s / 1e12,
             "flops_tflop_per_s": g.peak_flops_per_s / 1e12, "capacity_bytes": g.memory_capacity_bytes,
             "interconnect_gb_per_s": g.interconnect_bytes_per_s / 1e9}
            for k, g in catalog.gpus.items()]
    models = []
    for k, m in catalog.models.items():
        models.append({
            "key": k, "label": m.label, "hf_id": m.hf_id, "role": _role(catalog, k, m),
            "hidden_size": m.hidden_size, "intermediate_size": m.intermediate_size,
            "num_hidden_layers": m.num_hidden_layers, "num_attention_heads": m.num_attention_heads,
            "num_key_value_heads": m.num_key_value_heads, "head_dim": m.head_dim, "vocab_size": m.vocab_size,
            "tie_word_embeddings": m.tie_word_embeddings, "is_moe": m.is_moe,
            "num_experts": m.num_experts, "num_experts_per_tok": m.num_experts_per_tok,
            "moe_intermediate_size": m.moe_intermediate_size,
            "params": m.params, "active_params": m.active_params, "weight_bytes": m.weight_bytes,
            "kv_bytes_per_token": m.kv_bytes_per_token,
        })
    drafters = []
    # A draft model serves every target with more parameters in all; a mixture of experts reads
    # only its active ones a token, which may be fewer than the draft model's: the page says so.
    heavier = []
    for k, d in catalog.drafters.items():
        serves = [catalog.targets[t].label for t in catalog.targets if k in catalog.drafters_for(t)]
        # what --speculative-config calls its kind (found by a cold read: the kind column showed
        # the catalog's keys, draft_model, eagle3, without saying whose words they are)
        method = catalog.drafter(k, next(t for t in catalog.targets if k in catalog.drafters_for(t))).speculative_config(1)["method"]
        drafters.append({"key": k, "label": d.label, "kind": d.kind, "method": method, "serves": serves})
        arch = getattr(d, "architecture", None)
        heavier += [{"drafter": d.label, "target": target.label, **_best_at_one_sequence(catalog, k, t)}
                    for t, target in catalog.targets.items()
                    if arch is not None and target.is_moe and k in catalog.drafters_for(t)
                    and arch.params >= target.active_params]
    configs = [{"gpu": catalog.gpus[c.gpu].label, "target": catalog.targets[c.target].label, "tp": c.tp}
               for c in configurations(catalog)]
    missing = [(catalog.gpus[g].label, catalog.targets[t].label) for g in catalog.gpus for t in catalog.targets
               if not any(c.gpu == g and c.target == t for c in configurations(catalog))]
    return {"gpus": gpus, "models": models, "drafters": drafters, "heavier_drafters": heavier, "configurations": configs,
            "not_offered": missing, "extrapolation_rule": extrapolation_rule(),
            "tp_grid": list(FIELDS["tp"].grid), "weight_share": WEIGHT_SHARE}
