"""The site's numbers: specmodel evaluated once over the whole grid, field by field.

Every number the site shows comes from here, computed once: the data files store each field
through the contract's rounding; the essay, the simulation's build-time readouts and the
charts' default rows read the same arrays. Nothing is evaluated twice and nothing the build
writes is read back.

Each field is held as one array over the dims its file is chosen by (``contract.FILES``) then
the dims of its table (``contract.TABLES``), each dim in the order of ``axes``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from specmodel import Catalog, Triples, evaluate_grid
from specmodel.breakdown import iteration_breakdown, plain_step_breakdown
from specmodel.extrapolation import extrapolation_note
from specmodel.acceptance import shape_code
from specmodel.closed_forms import expected_tokens_ceiling, expected_tokens_per_iteration
from specmodel.vllm import engine_log_counts, format_per_position, speculative_config_flag

from .axes import (
    SITE_COST_MODELS, STATE_AXES, TOKEN_ROW_PASSES, Configuration, axes as site_axes, default_configuration,
    defaults, labels as site_labels, nearest_on_log_axis, other_cost_model, site_state, site_typical_acceptance,
)
from .contract import FIELDS, FILES, IDEAL_FIELDS, IDEAL_MODEL, TABLES, stored, token_kinds
from .evidence import measured_plain_points


@dataclass(frozen=True)
class Named:
    """An array and the names of its dims."""

    values: np.ndarray
    dims: tuple[str, ...]

    def to(self, dims: tuple[str, ...], sizes: dict[str, int]) -> np.ndarray:
        """The array over ``dims`` (in that order), broadcast along dims it does not have."""
        missing = [d for d in self.dims if d not in dims]
        if missing:
            raise ValueError(f"dims {missing} are not in {dims}")
        order = [self.dims.index(d) for d in dims if d in self.dims]
        a = np.transpose(self.values, order) if self.values.ndim else self.values
        shape = [sizes[d] if d in self.dims else 1 for d in dims]
        return np.broadcast_to(a.reshape(shape), [sizes[d] for d in dims])


def full_dims(field: str) -> tuple[str, ...]:
    """The dims of a field's array: its file's selecting dims, then its table's dims."""
    table = TABLES[FIELDS[field].table]
    return tuple(FILES[table.file]["by"]) + table.dims


def _triples(axes: dict) -> Triples:
    """Every (acceptance, α, γ), triple index = (acceptance·|α| + α)·|γ| + γ."""
    acc, alpha, gamma = np.meshgrid(np.arange(len(axes["acceptance"])), np.array(axes["alpha"]),
                                    np.array(axes["gamma"]), indexing="ij")
    codes = shape_code(list(axes["acceptance"]))[acc.ravel()]
    return Triples(gamma=gamma.ravel(), alpha=alpha.ravel(), shape=codes)


def token_row_counts(per_position, passes: int) -> list[int]:
    """Accepted counts of ``passes`` sample passes, taken at evenly spaced quantiles.

    Pass i accepts k guesses where k is the number of positions j with p_j > 1 − (i + ½)/passes:
    evenly spaced quantiles of the accepted count, so the rows' average tracks the mean
    acceptance length and the longest runs (with their bonus token) appear as often as they
    should. The quantiles do not depend on γ beyond cutting runs at it, so a larger γ only
    extends each pass's run. The passes are shown in a fixed interleaved order, the same at every
    γ, so the row does not read as sorted.
    """
    p = np.asarray(per_position, dtype=float)
    levels = 1 - (np.arange(passes) + 0.5) / passes
    counts = [int((p > level).sum()) for level in levels]
    order = sorted(range(passes), key=lambda i: (i * 5 + 3) % passes)  # a stride coprime with 8
    return [counts[i] for i in order]


def roof_points(peak_flops: float, peak_bytes: float, intensities) -> list[tuple[float, float]]:
    """The roofline's roof as three (FLOP/byte, FLOP/s) points.

    min(peak FLOP/s, intensity × peak bytes/s) is a straight line on log-log axes on each side of
    the ridge, so three points draw it exactly: the ridge, and decade bounds that enclose every
    verify pass and the ridge.
    """
    ridge = peak_flops / peak_bytes
    xs = [float(x) for x in np.ravel(intensities) if x > 0] or [ridge]
    low = 10 ** math.floor(math.log10(min(min(xs), ridge)))
    high = 10 ** math.ceil(math.log10(max(max(xs), ridge)))
    if high <= ridge:
        high *= 10
    return [(x, min(peak_flops, x * peak_bytes)) for x in (low, ridge, high)]


class SiteModel:
    """Every field of the contract over the site's grid (unrounded), from one evaluation."""

    def __init__(self, catalog: Catalog, config: Configuration | None = None):
        self.catalog = catalog
        self.config = config or default_configuration(catalog)
        self.axes = site_axes(catalog, self.config)
        self.defaults = defaults()
        self.labels = site_labels(catalog)
        drafter = self.defaults["drafter"]
        self.base = site_state(gpu=self.config.gpu, target=self.config.target, tp=self.config.tp,
                               drafter=drafter if drafter in self.config.drafters else self.config.drafters[0])
        # This configuration's own state: where a state of another configuration would be read.
        self.config_state = {name: getattr(self.base, name) for name in STATE_AXES}
        self.sizes = {k: len(v) for k, v in self.axes.items()}
        self.arrays: dict[str, np.ndarray] = {}
        self._evaluate()

    # --- lookups ---------------------------------------------------------------------------

    def index(self, dim: str, value) -> int:
        values = self.axes[dim]
        for i, v in enumerate(values):
            if v == value or (isinstance(value, float) and isinstance(v, float) and math.isclose(v, value, rel_tol=1e-9)):
                return i
        raise KeyError(f"{dim}={value!r} is not on the axis {values!r}")

    def value(self, field: str, state: dict, **at):
        """Field ``field`` at ``state`` (every state axis), with some dims set by ``at``. Unrounded."""
        coords = {**state, **at}
        return _plain(self.arrays[field][tuple(self.index(d, coords[d]) for d in full_dims(field))])

    def stored_value(self, field: str, state: dict, **at):
        """The value as the data files store it (the contract's rounding)."""
        return stored(field, self.value(field, state, **at))

    # --- the evaluation --------------------------------------------------------------------

    def _set(self, field: str, named: Named) -> None:
        self.arrays[field] = named.to(full_dims(field), self.sizes)

    def _evaluate(self) -> None:
        catalog, ax, base = self.catalog, self.axes, self.base
        target = catalog.targets[base.target]
        gpu = catalog.gpu_group(base.gpu, base.tp)
        drafters = [catalog.drafter(k, base.target) for k in ax["drafter"]]
        triples = _triples(ax)
        na, nal, ng = len(ax["acceptance"]), len(ax["alpha"]), len(ax["gamma"])
        g_out = base.output_tokens
        s_dims = ("acceptance", "alpha", "gamma")

        def by_triple(a: np.ndarray, lead: tuple[str, ...]) -> Named:
            # (..., S) → (..., acceptance, α, γ)
            return Named(a.reshape(a.shape[:-1] + (na, nal, ng)), lead + s_dims)

        per_cost: dict[str, dict[str, Named]] = {}
        # Both cost models are evaluated in every configuration (the ladder's other model, the
        # ideal figures); the data files hold the configuration's own (ax["cost_model"]).
        for cost_name in SITE_COST_MODELS:
            cost = catalog.cost_model(cost_name, base.engine)
            r = evaluate_grid(ax["batch"], ax["context"], drafters, triples, target, gpu, g_out, cost)
            f: dict[str, Named] = {}
            bc1 = ("batch", "context")
            for key in ("speedup", "spec_tokens_per_s", "draft_time_share", "arithmetic_ratio"):
                f[key] = Named(np.stack([r.per_workload[w][key].reshape(r.per_workload[w][key].shape[:3] + (na, nal, ng))
                                         for w in ax["workload"]]),
                               ("workload", "batch", "context", "drafter") + s_dims)
            plain = np.stack([r.per_workload[w]["plain_tokens_per_s"][:, :, 0, 0] for w in ax["workload"]], axis=-1)
            f["plain_tokens_per_s"] = Named(plain, bc1 + ("workload",))
            for key in ("verify_bytes", "verify_flops", "verify_memory_time_s", "verify_compute_time_s",
                        "tensor_core_idle_fraction", "verify_arithmetic_intensity"):
                f[key] = self._gamma_only(by_triple(r.verify[key][:, :, 0, :], bc1))
            f["verify_time_s"] = self._gamma_only(by_triple(r.verify["verify_time_s"][:, :, 0, :], bc1))
            attained = r.verify["verify_flops"] / r.verify["verify_time_s"]
            f["verify_attained_flops_per_s"] = self._gamma_only(by_triple(attained[:, :, 0, :], bc1))
            for key, source in (("draft_memory_time_s", "memory_time_s"), ("draft_compute_time_s", "compute_time_s"),
                                ("draft_time_s", "time_s")):
                f[key] = self._gamma_only(by_triple(r.draft[source], bc1 + ("drafter",)))
            f["plain_pass_memory_time_s"] = Named(r.plain_pass["memory_time_s"][:, :, 0, 0], bc1)
            f["plain_pass_compute_time_s"] = Named(r.plain_pass["compute_time_s"][:, :, 0, 0], bc1)
            memory = r.memory_required_bytes[..., 0]
            f["memory_required_bytes"] = Named(memory, bc1 + ("drafter",))
            f["fits_in_memory"] = Named(memory <= gpu.memory_capacity_bytes, bc1 + ("drafter",))
            peak_flops, peak_bytes = cost.roof(gpu)
            f["peak_flops_per_s"] = Named(np.array(peak_flops), ())
            f["peak_bytes_per_s"] = Named(np.array(peak_bytes), ())
            roof = roof_points(peak_flops, peak_bytes, f["verify_arithmetic_intensity"].values)
            f["roof_intensity"] = Named(np.array([x for x, _ in roof]), ("roof_point",))
            f["roof_flops_per_s"] = Named(np.array([y for _, y in roof]), ("roof_point",))
            self._log_fields(f, r, ax, drafters)
            self._best_fields(f, ax)
            self._decision_fields(f, ax)
            per_cost[cost_name] = f
        for cost_name in ax["cost_model"]:
            f = per_cost[cost_name]
            other = other_cost_model(cost_name)
            f["other_speedup"] = per_cost[other]["speedup"]
            f["other_plain_tokens_per_s"] = per_cost[other]["plain_tokens_per_s"]
            f["other_cost_model"] = Named(np.array(other, dtype=object), ())
            for field in IDEAL_FIELDS:
                f[f"ideal_{field}"] = per_cost[IDEAL_MODEL][field]

        first = per_cost[ax["cost_model"][0]]
        for field in (f for f in first if f in FIELDS):
            self._set(field, Named(np.stack([per_cost[c][field].to(per_cost[c][field].dims, self.sizes)
                                             for c in ax["cost_model"]]),
                                   ("cost_model",) + first[field].dims))
        self._set("extrapolation_note", Named(np.array(extrapolation_note(base, self.catalog) or "", dtype=object), ()))
        self._static_fields(target, gpu, drafters, triples)
        self._measured_fields()
        self._breakdown_fields(target, gpu, drafters)

    @staticmethod
    def _gamma_only(named: Named) -> Named:
        # A verify pass or a draft phase depends on γ, not on α or the acceptance shape: take
        # the first α and shape (every one holds the same value).
        i_acc, i_alpha = named.dims.index("acceptance"), named.dims.index("alpha")
        a = np.take(np.take(named.values, 0, axis=i_alpha), 0, axis=i_acc)
        return Named(a, tuple(d for d in named.dims if d not in ("acceptance", "alpha")))

    def _log_fields(self, f: dict, r, ax: dict, drafters) -> None:
        na, nal, ng = len(ax["acceptance"]), len(ax["alpha"]), len(ax["gamma"])
        el = r.acceptance["mean_acceptance_length"].reshape(na, nal, ng)  # (acc, α, γ)
        batch = np.array(ax["batch"], dtype=float)
        gammas = np.array(ax["gamma"])
        tps = f["spec_tokens_per_s"].values  # (w, B, P, D, acc, α, γ)
        log = engine_log_counts(batch[None, :, None, None, None, None, None], gammas, el, tps)
        text = np.vectorize(lambda x: "%.2f" % x, otypes=[object])
        dims = f["spec_tokens_per_s"].dims
        f["log_accepted_throughput_text"] = Named(text(log["accepted_tokens_per_s"]), dims)
        f["log_drafted_throughput_text"] = Named(text(log["drafted_tokens_per_s"]), dims)
        per_batch = engine_log_counts(batch[:, None, None, None], gammas, el[None], np.ones(1))
        bg = ("batch", "acceptance", "alpha", "gamma")
        f["log_accepted_tokens"] = Named(per_batch["num_accepted_tokens"], bg)
        f["log_drafted_tokens"] = Named(np.broadcast_to(per_batch["num_draft_tokens"], per_batch["num_accepted_tokens"].shape), bg)
        f["log_mean_acceptance_length_text"] = Named(text(per_batch["mean_acceptance_length"]), bg)
        f["log_draft_acceptance_rate_text"] = Named(
            np.vectorize(lambda x: "%.1f" % (x * 100), otypes=[object])(per_batch["draft_acceptance_rate"]), bg)

    @staticmethod
    def _best_fields(f: dict, ax: dict) -> None:
        speedup = f["speedup"]  # (w, B, P, D, acc, α, γ)
        s = speedup.values
        best_g = s.argmax(axis=-1)  # (w, B, P, D, acc, α)
        gammas = np.array(ax["gamma"])
        best_speedup = np.take_along_axis(s, best_g[..., None], axis=-1)[..., 0]
        dims = speedup.dims[:-1]
        f["best_gamma"] = Named(gammas[best_g], dims)
        f["paying_positions"] = Named(np.where(best_speedup > 1, gammas[best_g], 0), dims)

    def _decision_fields(self, f: dict, ax: dict) -> None:
        """The fastest drafter × γ per task, batch and context, each drafter at its own typical
        acceptance for the task (``site_typical_acceptance``)."""
        s = f["speedup"].values  # (w, B, P, D, acc, α, γ)
        typical = site_typical_acceptance(self.catalog, self.config.target)
        gammas = np.array(ax["gamma"])
        drafter_keys = np.array(ax["drafter"], dtype=object)
        fits = f["fits_in_memory"].values  # (B, P, D)
        b_i, p_i = np.indices(fits.shape[:2])
        out: dict[str, list] = {k: [] for k in ("drafter", "gamma", "alpha", "acceptance", "speedup", "fits")}
        for task in ax["task"]:
            at = [typical[d][task] for d in ax["drafter"]]
            per_drafter = np.stack([s[:, :, :, i, self.index("acceptance", shape), self.index("alpha", alpha), :]
                                    for i, (alpha, shape) in enumerate(at)], axis=3)  # (w, B, P, D, γ)
            flat = per_drafter.reshape(per_drafter.shape[:3] + (-1,))
            best = flat.argmax(axis=-1)  # (w, B, P)
            d_index = best // len(gammas)
            out["drafter"].append(drafter_keys[d_index])
            out["gamma"].append(gammas[best % len(gammas)])
            out["alpha"].append(np.array([a for a, _ in at])[d_index])
            out["acceptance"].append(np.array([shape for _, shape in at], dtype=object)[d_index])
            out["speedup"].append(np.take_along_axis(flat, best[..., None], axis=-1)[..., 0])
            out["fits"].append(fits[b_i[None], p_i[None], d_index])
        dims = ("task", "workload", "batch", "context")
        for key, values in out.items():
            f[f"decision_{key}"] = Named(np.stack(values), dims)

    def _measured_fields(self) -> None:
        """Plain decoding as measured, at the grid context nearest the measurement's (log scale)."""
        ax = self.axes
        shape = (len(ax["measured_study"]), len(ax["context"]), len(ax["batch"]))
        tokens, contexts = np.full(shape, np.nan), np.full(shape, np.nan)
        for point in measured_plain_points(self.catalog):
            if point.study not in ax["measured_study"] or point.batch not in ax["batch"]:
                continue
            if (point.gpu, point.target, 1) != self.config.key:
                continue  # measured for another configuration
            nearest = nearest_on_log_axis(ax["context"], point.context_tokens)
            i = (ax["measured_study"].index(point.study), ax["context"].index(nearest), ax["batch"].index(point.batch))
            if not math.isnan(tokens[i]):
                raise ValueError(f"two {point.study} measurements at batch {point.batch} near context {nearest}")
            tokens[i], contexts[i] = point.tokens_per_s, point.context_tokens
        dims = ("measured_study", "context", "batch")
        self._set("measured_plain_tokens_per_s", Named(tokens, dims))
        self._set("measured_context_tokens", Named(contexts, dims))

    def _breakdown_fields(self, target, gpu, drafters) -> None:
        """One step by part under every cost model, at the verify readouts' step (full batch,
        context P + G/2 per sequence)."""
        ax, base = self.axes, self.base
        n = np.array(ax["batch"], dtype=float)[:, None]
        context = np.array(ax["context"], dtype=float)[None, :] + base.output_tokens / 2
        parts = ax["part"]
        # (drafter, γ, model, B, P, step kind, part)
        values = np.zeros((len(drafters), len(ax["gamma"]), len(ax["breakdown_model"]), n.size, context.size,
                           len(ax["step_kind"]), len(parts)))
        for m, name in enumerate(ax["breakdown_model"]):
            cost = self.catalog.cost_model(name, base.engine)
            plain = plain_step_breakdown(cost, target, gpu, n, context)
            plain_stack = np.stack([np.broadcast_to(plain[p], (n.size, context.size)) for p in parts], axis=-1)
            for d, drafter in enumerate(drafters):
                for g, gamma in enumerate(ax["gamma"]):
                    it = iteration_breakdown(cost, drafter, target, gpu, n, context, int(gamma))
                    values[d, g, m, :, :, 0] = np.stack([np.broadcast_to(it[p], (n.size, context.size)) for p in parts], -1)
                    values[d, g, m, :, :, 1] = plain_stack
        dims = ("drafter", "gamma", "breakdown_model", "batch", "context", "step_kind")
        self._set("part_time_s", Named(values, dims + ("part",)))
        self._set("step_time_s", Named(values.sum(axis=-1), dims))

    def _static_fields(self, target, gpu, drafters, triples) -> None:
        ax = self.axes
        na, nal, ng = len(ax["acceptance"]), len(ax["alpha"]), len(ax["gamma"])
        acc_dims = ("acceptance", "alpha", "gamma")
        from specmodel.acceptance import mean_acceptance_length, per_position_acceptance

        el = mean_acceptance_length(triples.gamma, triples.alpha, triples.shape, triples.max_gamma)
        pp = per_position_acceptance(triples.gamma, triples.alpha, triples.shape, triples.max_gamma)
        self._set("mean_acceptance_length", Named(el.reshape(na, nal, ng), acc_dims))
        gammas = list(ax["gamma"])
        lists = np.empty((na, nal, ng), dtype=object)
        texts = np.empty((na, nal, ng), dtype=object)
        rows = np.empty((na, nal, ng), dtype=object)
        row_tokens = np.empty((na, nal, ng))
        for i in range(na):
            for j in range(nal):
                longest = pp[(i * nal + j) * ng + ng - 1]
                for k, g in enumerate(gammas):
                    p = pp[(i * nal + j) * ng + k, :g]
                    lists[i, j, k] = [float(x) for x in p]
                    texts[i, j, k] = format_per_position(p)
                    counts = token_row_counts(longest[:g], TOKEN_ROW_PASSES)
                    rows[i, j, k] = [token_kinds(g, c) for c in counts]
                    row_tokens[i, j, k] = int(np.sum(counts)) + len(counts)  # each pass adds one token of its own
        self._set("per_position_acceptance", Named(lists, acc_dims))
        self._set("per_position_text", Named(texts, acc_dims))
        self._set("token_row", Named(rows, acc_dims))
        self._set("token_row_tokens", Named(row_tokens, acc_dims))
        self._set("token_row_expected_tokens", Named(el.reshape(na, nal, ng) * TOKEN_ROW_PASSES, acc_dims))
        positions = pp.reshape(na, nal, ng, -1)[:, :, -1, : len(ax["position"])]
        self._set("position_acceptance", Named(positions, ("acceptance", "alpha", "position")))
        self._set("draft_weight_bytes", Named(np.array([d.weight_bytes for d in drafters]), ("drafter",)))
        self._set("draft_kv_bytes_per_token", Named(np.array([d.kv_bytes_per_token for d in drafters]), ("drafter",)))
        flags = np.array([[speculative_config_flag(self.base.replace(drafter=d.key, gamma=int(g)), self.catalog)
                           for g in gammas] for d in drafters], dtype=object)
        self._set("speculative_config", Named(flags, ("drafter", "gamma")))
        self._set("target_weight_bytes", Named(np.array(target.weight_bytes), ()))
        self._set("target_kv_bytes_per_token", Named(np.array(target.kv_bytes_per_token), ()))
        self._set("gpu_memory_bytes", Named(np.array(gpu.memory_capacity_bytes), ()))
        alphas, cf = np.array(ax["alpha"]), np.array(ax["gamma_cf"])
        self._set("expected_tokens", Named(expected_tokens_per_iteration(alphas[:, None], cf[None, :]), ("alpha", "gamma_cf")))
        self._set("ceiling", Named(expected_tokens_ceiling(alphas), ("alpha",)))

    # --- views for the essay ---------------------------------------------------------------

    def readouts(self, state: dict) -> dict:
        """Every readout (specmodel's READOUT_KEYS) at ``state``, unrounded."""
        from .contract import READOUTS

        return {key: self.value(key, state) for key in READOUTS}


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    return v
