"""``specmodel catalog``: every entry of the catalog as text, with its figures and its source."""
from __future__ import annotations

from .catalog import Catalog
from .display import datasheet_figure, wrap
from .extrapolation import CALIBRATED_GPU, CALIBRATED_TARGET


def catalog_text(catalog: Catalog) -> str:
    """GPUs, targets and the other models, drafters (with the targets each serves), each drafter's
    typical acceptance (evaluate's default α) and engines."""
    lines = ["GPUs (datasheet figures; dense bf16):"]
    for key, g in catalog.gpus.items():
        lines.append(f"  {key:<10} {g.label}: {datasheet_figure(g.peak_flops_per_s / 1e12)} TFLOP/s, "
                     f"{datasheet_figure(g.peak_memory_bandwidth_bytes_per_s / 1e12)} TB/s, "
                     f"{g.memory_capacity_bytes / 1e9:.0f} GB, "
                     f"interconnect {datasheet_figure(g.interconnect_bytes_per_s / 1e9)} GB/s each way"
                     + ("" if key == CALIBRATED_GPU else "  [calibrated constants extrapolated]"))
        lines.append(wrap(f"source: {g.source}", width=120, initial_indent=" " * 13, subsequent_indent=" " * 21))
    lines += ["", "Models (Hugging Face config.json; parameters computed from the fields; --target takes a target's key,",
              "while a draft model or head is chosen by its drafter's key, under Drafters):"]
    for key, m in catalog.models.items():
        role = "target" if key in catalog.targets else "head" if m.is_eagle3_head else "draft"
        moe = (f", {m.num_experts} experts, {m.num_experts_per_tok} per token, "
               f"{m.active_params / 1e9:.2f} B active" if m.is_moe else "")
        lines.append(f"  {key:<30} {role:<6} {m.params / 1e9:7.3f} B params, {m.weight_bytes / 1e9:7.2f} GB bf16, "
                     f"KV {m.kv_bytes_per_token / 1e3:.1f} kB/token, L={m.num_hidden_layers} h={m.hidden_size}{moe}"
                     f"  ({m.hf_id})")
    lines += ["", "Drafters (the values of --drafter, and the targets each drafts for):"]
    for key, d in catalog.drafters.items():
        serves = [t for t in catalog.targets if d.serves(catalog.targets[t])]
        heads = getattr(d, "heads", None)
        detail = ("; heads: " + ", ".join(f"{t} → {h.hf_id}" for t, h in heads.items())) if heads else ""
        lines.append(wrap(f"{key:<14} {d.kind:<11} {d.label}: {', '.join(serves)}{detail}", width=120,
                          initial_indent="  ", subsequent_indent=" " * 29))
    lines += ["", "Typical acceptance (evaluate's default α, which the page rounds to its grid of 0.05: each drafter",
              "on each target and task; measured where published, carried from another target's drafter, or assumed):"]
    for drafter, by_target in catalog.typical_acceptance.items():
        for target, by_task in by_target.items():
            for task, t in by_task.items():
                source = t.source if t.source.startswith(t.basis) else f"{t.basis}: {t.source}"
                lines.append(wrap(f"{drafter:<14} {target:<24} {task:<14} α {t.alpha:<6.4g} {t.acceptance:<8} {source}",
                                  width=120, initial_indent="  ", subsequent_indent=" " * 18))
    lines += ["", f"Engines (calibrated on {CALIBRATED_TARGET} on one {CALIBRATED_GPU}; elsewhere extrapolated):"]
    for key, e in catalog.engines.items():
        lines.append(f"  {key}: {e.label} ({e.calibrated_on})")
        for name, value in e.constants.items():
            # the whole source, wrapped under its own first line (found by cold reads: cut mid-word at
            # 110; the values' column ragged)
            lines.append(wrap(f"{name:<34} {value:<12.6g} {e.sources[name]}", width=120, initial_indent="    ",
                              subsequent_indent=" " * (4 + 34 + 1 + 12 + 1)))
    return "\n".join(lines)
