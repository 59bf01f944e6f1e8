"""Evaluate the whole grid with specmodel and lay it out as the page's JSON files.

Layout (ARCHITECTURE.md, "Data layout"): a manifest, one core file of tables that do not depend
on (acceptance, workload, α), and one shard per (acceptance, workload, α) holding everything
that does. Flat arrays are row-major over their ``dims``.
"""
from __future__ import annotations

import numpy as np

from specmodel import Catalog, Triples, default_catalog, evaluate_grid
from specmodel.closed_forms import expected_tokens_ceiling, expected_tokens_per_iteration
from specmodel.sampler import sample_accepted_counts
from specmodel.vllm import engine_log_counts, format_per_position, speculative_config_flag

from .axes import AXES, CLOSED_FORM_GAMMAS, DEFAULTS, LABELS, SHARD_BY, SHARD_DIMS, SHARD_PATTERN, TOKEN_ROW_ITERATIONS, shard_path, site_state
from .rounding import sig, sig_list

N_GAMMA = len(AXES["gamma"])
N_ALPHA = len(AXES["alpha"])


def _triples() -> Triples:
    """All (acceptance, α, γ) combinations; triple index = (acceptance·19 + α)·10 + γ."""
    acc, alpha, gamma = np.meshgrid(
        np.arange(len(AXES["acceptance"])), np.array(AXES["alpha"]), np.array(AXES["gamma"]), indexing="ij"
    )
    falling = np.array([a == "falling" for a in AXES["acceptance"]])[acc.ravel()]
    return Triples(gamma=gamma.ravel(), alpha=alpha.ravel(), falling=falling)


def _fmt_list(a, fmt: str) -> list[str]:
    return [fmt % x for x in np.asarray(a).ravel()]


def build_site_data(catalog: Catalog | None = None, model_version: str = "") -> dict[str, dict]:
    """Every data file of the page as ``{path relative to docs/data/: JSON-able dict}``.

    Raises whatever specmodel raises (ModelInputError for a bad entry): callers write nothing then.
    """
    catalog = catalog or default_catalog()
    fixed = site_state()  # the site varies the AXES; target, GPU and output length stay at the defaults
    target = catalog.targets[fixed.target]
    gpu = catalog.gpus[fixed.gpu]
    drafters = [catalog.drafters[k] for k in AXES["drafter"]]
    g_out = fixed.output_tokens
    triples = _triples()
    cost = catalog.cost_model(fixed.cost_model, fixed.engine)
    r = evaluate_grid(AXES["batch"], AXES["context"], drafters, triples, target, gpu, g_out, cost)
    batch = np.array(AXES["batch"])
    gammas = np.array(AXES["gamma"])

    files: dict[str, dict] = {}
    core = {
        "model_version": model_version,
        "verify": {
            "dims": ["batch", "context", "gamma"],
            # bytes and memory time do not depend on γ: broadcast them to the table's full shape
            **{k: sig_list(np.broadcast_to(v, r.verify["verify_flops"].shape)[:, :, 0, :N_GAMMA])
               for k, v in r.verify.items() if k != "verify_time_s"},
            "verify_attained_flops_per_s": sig_list((r.verify["verify_flops"] / r.verify["verify_time_s"])[:, :, 0, :N_GAMMA]),
        },
        "draft": {
            "dims": ["batch", "context", "drafter", "gamma"],
            "draft_memory_time_s": sig_list(r.draft["memory_time_s"][..., :N_GAMMA]),
            "draft_compute_time_s": sig_list(r.draft["compute_time_s"][..., :N_GAMMA]),
            "draft_time_s": sig_list(r.draft["time_s"][..., :N_GAMMA]),
        },
        "plain": {
            "dims": ["batch", "context", "workload"],
            "plain_tokens_per_s": sig_list(np.stack(
                [r.per_workload[w]["plain_tokens_per_s"][:, :, 0, 0] for w in AXES["workload"]], axis=-1)),
            "pass_dims": ["batch", "context"],
            "plain_pass_memory_time_s": sig_list(r.plain_pass["memory_time_s"][:, :, 0, 0]),
            "plain_pass_compute_time_s": sig_list(r.plain_pass["compute_time_s"][:, :, 0, 0]),
        },
        "memory": {
            "dims": ["batch", "context", "drafter"],
            "memory_required_bytes": sig_list(r.memory_required_bytes[..., 0]),
            "fits_in_memory": [int(x) for x in (r.memory_required_bytes[..., 0] <= gpu.memory_capacity_bytes).ravel()],
            "gpu_memory_bytes": sig(gpu.memory_capacity_bytes),
        },
        "drafters": {
            "dims": ["drafter"],
            "draft_weight_bytes": [d.weight_bytes for d in drafters],
            "draft_kv_bytes_per_token": [d.kv_bytes_per_token for d in drafters],
            "speculative_config": [[speculative_config_flag(site_state(drafter=d.key, gamma=int(g)), catalog) for g in gammas] for d in drafters],
            "target_weight_bytes": target.weight_bytes,
            "target_kv_bytes_per_token": target.kv_bytes_per_token,
        },
        "closed_form": {
            "dims": ["alpha", "gamma_cf"],
            "gamma_cf": CLOSED_FORM_GAMMAS,
            "expected_tokens": sig_list(expected_tokens_per_iteration(np.array(AXES["alpha"])[:, None], np.array(CLOSED_FORM_GAMMAS)[None, :])),
            "ceiling": sig_list(expected_tokens_ceiling(np.array(AXES["alpha"]))),
        },
        "roofline": {"peak_flops_per_s": sig(gpu.achieved_flops_per_s), "peak_bytes_per_s": sig(gpu.achieved_bytes_per_s)},
    }
    files["core.json"] = core

    el_all = r.acceptance["mean_acceptance_length"]
    pp_all = r.acceptance["per_position_acceptance"]
    shards = []
    for ai, acceptance in enumerate(AXES["acceptance"]):
        for li in range(N_ALPHA):
            sl = slice((ai * N_ALPHA + li) * N_GAMMA, (ai * N_ALPHA + li + 1) * N_GAMMA)
            el = el_all[sl]
            pp = pp_all[sl]
            by_gamma = {
                "mean_acceptance_length": sig_list(el),
                "per_position_acceptance": [sig_list(pp[i, : g]) for i, g in enumerate(gammas)],
                "per_position_text": [format_per_position(pp[i, : g]) for i, g in enumerate(gammas)],
                # one seeded sample per (acceptance, α), shared by every γ: a larger γ only
                # extends each iteration's accepted run, as it would on the same text
                "token_row": [sample_accepted_counts(pp[i, : g], TOKEN_ROW_ITERATIONS, seed=sl.start,
                                                     max_positions=int(gammas[-1])) for i, g in enumerate(gammas)],
            }
            for wl in AXES["workload"]:
                w = r.per_workload[wl]
                speedup = w["speedup"][..., sl]
                spec_tps = w["spec_tokens_per_s"][..., sl]
                log = engine_log_counts(batch[:, None, None, None], gammas, el, spec_tps)
                log_bg = engine_log_counts(batch[:, None], gammas[None, :], el[None, :], np.ones((1, N_GAMMA)))
                best_g = speedup.argmax(axis=-1)  # (B, P, D)
                flat = speedup.reshape(speedup.shape[0], speedup.shape[1], -1)
                best = flat.argmax(axis=-1)  # over drafter × γ
                shard = {
                    "model_version": model_version,
                    "acceptance": acceptance,
                    "workload": wl,
                    "alpha": AXES["alpha"][li],
                    "dims": list(SHARD_DIMS),
                    "speedup": sig_list(speedup),
                    "spec_tokens_per_s": sig_list(spec_tps),
                    "draft_time_share": sig_list(w["draft_time_share"][..., sl]),
                    "arithmetic_ratio": sig_list(w["arithmetic_ratio"][..., sl]),
                    "log_accepted_throughput_text": _fmt_list(log["accepted_tokens_per_s"], "%.2f"),
                    "log_drafted_throughput_text": _fmt_list(log["drafted_tokens_per_s"], "%.2f"),
                    "by_gamma": by_gamma,
                    "by_batch_gamma": {
                        "dims": ["batch", "gamma"],
                        "log_accepted_tokens": [int(x) for x in log_bg["num_accepted_tokens"].ravel()],
                        "log_drafted_tokens": [int(x) for x in log_bg["num_draft_tokens"].ravel()],
                        "log_mean_acceptance_length_text": _fmt_list(log_bg["mean_acceptance_length"], "%.2f"),
                        "log_draft_acceptance_rate_text": _fmt_list(log_bg["draft_acceptance_rate"] * 100, "%.1f"),
                    },
                    "best_gamma": {"dims": ["batch", "context", "drafter"], "gamma": [int(gammas[i]) for i in best_g.ravel()]},
                    "decision": {
                        "dims": ["batch", "context"],
                        "drafter": [int(i // N_GAMMA) for i in best.ravel()],
                        "gamma": [int(gammas[i % N_GAMMA]) for i in best.ravel()],
                        "speedup": sig_list(np.take_along_axis(flat, best[..., None], axis=-1)),
                    },
                }
                path = shard_path(acceptance, wl, li)
                files[path] = shard
                shards.append(path)

    files["manifest.json"] = {
        "model_version": model_version,
        "axes": AXES,
        "defaults": DEFAULTS,
        "labels": LABELS,
        "shards": {"by": list(SHARD_BY), "pattern": SHARD_PATTERN, "dims": list(SHARD_DIMS), "files": shards},
        "core": "core.json",
        "gpu_memory_bytes": sig(gpu.memory_capacity_bytes),
        "output_tokens": g_out,
        "target": target.label,
        "gpu": gpu.label,
    }
    return files
