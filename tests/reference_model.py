"""A literal, loop-by-loop transcription of the whole-pass cost model's closed-batch workload, in
plain Python. Slow, but written straight from the spec, so the vectorised grid has something
independent to agree with."""
from specmodel import default_catalog


def _pass(m, gpu, n, c, n_pos):
    nbytes = (m.weight_bytes if n > 0 else 0) + m.kv_bytes_per_token * c
    flops = n_pos * (n * 2 * m.params + 4 * m.num_hidden_layers * m.num_attention_heads * m.head_dim * c)
    return max(nbytes / (gpu.memory_efficiency * gpu.peak_memory_bandwidth_bytes_per_s),
               flops / (gpu.compute_efficiency * gpu.peak_flops_per_s)), flops


def closed_batch(batch, context, drafter, gamma, alpha, acceptance, g=256):
    catalog = default_catalog()
    t = catalog.targets["qwen3-8b"]
    gpu = catalog.gpus["h100-sxm"]
    d = catalog.drafters[drafter]
    a = [alpha * 0.85 ** j if acceptance == "falling" else alpha if acceptance == "same" else 1 - (1 - alpha) * 0.65 ** j
         for j in range(gamma)]
    p = [1.0]
    for x in a:
        p.append(p[-1] * x)
    p.append(0.0)
    pk = [p[k] - p[k + 1] for k in range(gamma + 1)]
    f = [1.0] + [0.0] * (g - 1)
    t_spec = f_spec = 0.0
    while sum(f) > 1e-13:
        q = sum(f)
        m = sum((context + s) * f[s] for s in range(g))
        r = 1 - (1 - q) ** batch
        n, c = batch * q / r, batch * m / r
        tv, fv = _pass(t, gpu, n, c, gamma + 1)
        t_spec += r * tv
        f_spec += r * fv
        if d.kind == "draft_model":
            for j in range(gamma):
                td, fd = _pass(d.architecture, gpu, n, c + j * n, 1)
                t_spec += r * td
                f_spec += r * fd
        nf = [0.0] * g
        for s in range(g):
            for k in range(gamma + 1):
                if s + k + 1 < g:
                    nf[s + k + 1] += pk[k] * f[s]
        f = nf
    t_plain = f_plain = 0.0
    for i in range(g):
        tp, fp = _pass(t, gpu, batch, batch * (context + i), 1)
        t_plain += tp
        f_plain += fp
    return {"speedup": t_plain / t_spec, "arithmetic_ratio": f_spec / f_plain}
