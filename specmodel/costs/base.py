"""What every cost model shares: a pass priced as two affine functions of the cached context.

Every cost model here prices one forward pass, for a given number of sequences n and scored
positions per sequence n_pos, as

    time_s(C) = max(a0 + a1·C, b0 + b1·C)

where C is the pass's cached context (tokens summed over its sequences): the whole-pass roofline
is the max of its memory time and its compute time, both affine in C; the per-kernel price is a
sum of per-kernel maxima in which only attention depends on C, and it depends on C linearly; the
calibrated price is the larger of that and the engine's launch floor, which does not depend on C.
FLOPs, bytes, memory time and compute time are affine in C too.

That shape is what makes the grid fast and exact: the sum over a speculative iteration's γ draft
passes (context C + j·n at pass j) and over plain decoding's G steps (context B·(P + i)) is a sum
of the max of two affine functions over consecutive integers, done in closed form by
``max_affine_sum`` instead of a loop.

Every function broadcasts over NumPy arrays.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..architecture import Architecture
from ..hardware import GPU


@dataclass(frozen=True)
class Affine:
    """v(C) = v0 + v1·C (arrays of any mutually broadcastable shapes)."""

    v0: np.ndarray
    v1: np.ndarray

    def at(self, context_sum) -> np.ndarray:
        value = np.multiply(self.v1, context_sum)
        # in place where the product already has the result's shape (grid arrays are large)
        if value.shape == np.broadcast_shapes(value.shape, np.shape(self.v0)):
            value += self.v0
            return value
        return self.v0 + value

    def sum(self, context_sum, step, count) -> np.ndarray:
        """Σ_{j=0}^{count−1} v(C + j·step)."""
        count = np.asarray(count, dtype=float)
        return count * self.at(context_sum) + self.v1 * step * count * (count - 1) / 2


class PassPrice:
    """One forward pass as functions of its cached context C (tokens, summed over its sequences).

    time_s(C) = max(a(C), b(C)), seconds. flops, bytes, memory_time_s (every byte at its
    achieved bandwidth) and compute_time_s (every FLOP at its achieved rate) are affine in C.
    The last three may be given as ``details``, a function returning them, called when first
    read: the grid's closed-batch sums need only the time and the FLOPs.
    """

    def __init__(self, a: Affine, b: Affine, flops: Affine, bytes: Affine | None = None,
                 memory_time_s: Affine | None = None, compute_time_s: Affine | None = None, *, details=None):
        self.a, self.b, self.flops = a, b, flops
        if details is None:
            self.__dict__["_details"] = (bytes, memory_time_s, compute_time_s)
        self._details_fn = details

    @functools.cached_property
    def _details(self) -> tuple:
        return self._details_fn()

    bytes = property(lambda self: self._details[0])
    memory_time_s = property(lambda self: self._details[1])
    compute_time_s = property(lambda self: self._details[2])


@dataclass(frozen=True)
class PassCost:
    """A priced pass (or the sum of several), every field shaped like the inputs.

    bytes, flops: moved and computed. memory_time_s, compute_time_s: the pass's bytes at their
    achieved bandwidths and its FLOPs at their achieved rates (s). time_s: what it takes (s).
    """

    bytes: np.ndarray
    flops: np.ndarray
    memory_time_s: np.ndarray
    compute_time_s: np.ndarray
    time_s: np.ndarray

    @property
    def arithmetic_intensity(self) -> np.ndarray:
        """FLOPs per byte moved."""
        return self.flops / self.bytes

    def flops_in_context(self) -> Affine:
        """The FLOPs as an affine function of the cached context, with no slope: a PassCost was
        computed at its contexts and already has their shape, so it is its own value there."""
        return Affine(self.flops, np.zeros_like(self.flops))

    @property
    def tensor_core_idle_fraction(self) -> np.ndarray:
        """1 − compute time / pass time: the share of the pass the tensor cores wait."""
        return 1.0 - self.compute_time_s / self.time_s


class PricedPasses:
    """``count`` passes at contexts C, C + step, … (one pass: count 1), each field computed
    when first read: a grid that needs only time and FLOPs pays for nothing else.
    Same fields as PassCost."""

    def __init__(self, price: PassPrice, context_sum, step=0.0, count=1):
        self._price, self._c, self._step, self._count = price, np.asarray(context_sum, dtype=float), step, count

    def _sum(self, affine: Affine) -> np.ndarray:
        return affine.sum(self._c, self._step, self._count)

    @functools.cached_property
    def bytes(self) -> np.ndarray:
        return self._sum(self._price.bytes)

    @functools.cached_property
    def flops(self) -> np.ndarray:
        return self._sum(self._price.flops)

    @functools.cached_property
    def memory_time_s(self) -> np.ndarray:
        return self._sum(self._price.memory_time_s)

    @functools.cached_property
    def compute_time_s(self) -> np.ndarray:
        return self._sum(self._price.compute_time_s)

    @functools.cached_property
    def time_s(self) -> np.ndarray:
        return max_affine_sum(self._price.a, self._price.b, self._c, self._step, self._count)

    def flops_in_context(self) -> Affine:
        """The passes' FLOPs as an affine function of the first pass's context C (the sum over
        passes of an affine function is affine: Σ_j f(C + j·step) = count·f(C) + f1·step·count(count−1)/2),
        shaped like the price, not like C: a caller summing over many contexts need not
        broadcast over them."""
        f, count = self._price.flops, np.asarray(self._count, dtype=float)
        return Affine(count * f.v0 + f.v1 * self._step * count * (count - 1) / 2, count * f.v1)

    arithmetic_intensity = PassCost.arithmetic_intensity
    tensor_core_idle_fraction = PassCost.tensor_core_idle_fraction


def max_affine_sum(a: Affine, b: Affine, context_sum, step, count) -> np.ndarray:
    """Σ_{j=0}^{count−1} max(a(C + j·step), b(C + j·step)), exactly, without a loop over j.

    Σ max(x, y) = Σ y + Σ max(x − y, 0), and x − y = gap + j·slope is linear in j: it is positive
    on one run of consecutive j, found from where it crosses zero, and summed as a series.
    On the grid almost every element has x − y of one sign over all of its passes (one side of
    the roofline binds throughout): those are summed directly, and only the rest (about 1 in
    25,000) go through the crossing. Both routes do the same floating-point operations on each
    element, so the result does not depend on which route an element took.
    """
    # a side that does not depend on C (a launch floor; no second side) is its intercept: the
    # same values as b.at(C), without an array over every context
    y0 = b.at(context_sum) if np.any(b.v1) else np.asarray(b.v0)
    if np.ndim(count) == 0 and count == 1:
        return np.maximum(a.at(context_sum), y0)
    count = np.asarray(count, dtype=float)
    slope = (a.v1 - b.v1) * step
    gap = a.at(context_sum)
    if gap.shape == np.broadcast_shapes(gap.shape, y0.shape):
        gap -= y0
    else:
        gap = gap - y0
    shape = np.broadcast_shapes(gap.shape, np.shape(slope), count.shape)
    if gap.shape != shape:
        gap = gap + np.zeros(shape)
    # Σ_{j<count} y_j
    total = y0 * count
    total += b.v1 * step * (count * (count - 1) / 2)
    if shape == ():
        return _add_positive_run(total, gap, slope, count)
    # x − y > 0 at every j: gap > 0 and, if falling, still above 0 at j = count − 1 (with a margin
    # far above rounding, so the crossing would say the same); x − y ≤ 0 at every j: the mirror
    margin = np.abs(slope) * ((count - 1) * (1 + 1e-9))
    all_positive = gap > np.where(slope >= 0, 0.0, margin)
    none_positive = gap <= np.where(slope <= 0, 0.0, np.nextafter(-margin, -np.inf))  # ≤ that is < −margin
    mixed = ~(all_positive | none_positive)
    # all positive: + Σ_j (gap + j·slope), the series below with lo = 0, hi = count
    result = count * gap
    result += total
    result += (count - 1) * count / 2 * slope
    np.copyto(result, total, where=none_positive)
    if mixed.any():
        where = np.nonzero(mixed)
        result[where] = _add_positive_run(*(np.broadcast_to(v, shape)[where] for v in (total, gap, slope, count)))
    return result


def _add_positive_run(total, gap, slope, count) -> np.ndarray:
    """total + Σ_{0 ≤ j < count, gap + j·slope > 0} (gap + j·slope), elementwise (same shapes or scalars)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        crossing = -np.divide(gap, slope)  # x − y = 0 at j = crossing (±inf or nan where flat)
    # x − y > 0 for j ≥ crossing when rising, j ≤ crossing when falling, all j or none when flat
    lo = np.where(slope > 0, np.minimum(np.maximum(np.ceil(crossing), 0.0), count), 0.0)
    hi = np.minimum(np.maximum(np.floor(crossing) + 1.0, 0.0), count)
    hi = np.maximum(np.where(slope < 0, hi, np.where((slope == 0) & (gap <= 0), 0.0, count)), lo)
    return total + (hi - lo) * gap + slope * ((hi * (hi - 1) - lo * (lo - 1)) / 2)


# The parts ``CostModel.breakdown`` splits one pass into (each model uses some of them).
WEIGHTS_AT_BANDWIDTH = "weights_at_bandwidth"  # weight GEMMs (and the embedding gather) bound by bytes
WEIGHTS_AT_FLOP_RATE = "weights_at_flop_rate"  # weight GEMMs bound by arithmetic
ATTENTION = "attention"  # attention over the KV cache
LAUNCH_FLOOR = "launch_floor"  # what the CPU's layer-by-layer launches add over the kernels
ALLREDUCE = "allreduce"  # tensor parallelism's all-reduces between the GPUs
WHOLE_PASS_AT_BANDWIDTH = "whole_pass_at_bandwidth"  # the whole-pass max, memory side binding
WHOLE_PASS_AT_FLOP_RATE = "whole_pass_at_flop_rate"  # the whole-pass max, arithmetic side binding
PASS_PARTS = (WHOLE_PASS_AT_BANDWIDTH, WHOLE_PASS_AT_FLOP_RATE, WEIGHTS_AT_BANDWIDTH, WEIGHTS_AT_FLOP_RATE,
              ATTENTION, ALLREDUCE, LAUNCH_FLOOR)


def allreduce_bytes_sent(model, gpu, num_seqs, num_positions) -> np.ndarray:
    """Bytes each GPU of a tensor-parallel group sends in one pass (0 on one GPU).

    Megatron-style tensor parallelism all-reduces the activations twice per layer (after the
    attention output projection and after the MLP's down projection), each T·h bf16 values for
    T = n·n_pos tokens; a ring all-reduce sends 2·(tp − 1)/tp of the message from each GPU
    (Shoeybi et al. 2019, arXiv 1909.08053; Patarasuk & Yuan 2009 for the ring).
        bytes = 2·L · 2·(tp − 1)/tp · T·h·2
    """
    tp = gpu.tensor_parallel
    tokens = np.asarray(num_seqs, dtype=float) * np.asarray(num_positions, dtype=float)
    message = tokens * model.hidden_size * 2.0
    return 2 * model.num_hidden_layers * 2 * (tp - 1) / tp * message


def allreduce_time_s(model, gpu, num_seqs, num_positions, latency_s: float = 0.0) -> np.ndarray:
    """The all-reduces of one pass: their bytes over the GPU's interconnect, one direction, plus
    ``latency_s`` per all-reduce (2 per layer) when a cost model charges one. 0 on one GPU."""
    if gpu.tensor_parallel == 1:
        return np.zeros(np.broadcast_shapes(np.shape(num_seqs), np.shape(num_positions)))
    sent = allreduce_bytes_sent(model, gpu, num_seqs, num_positions)
    return sent / gpu.interconnect_bytes_per_s + 2 * model.num_hidden_layers * latency_s * (np.asarray(num_seqs) > 0)


class CostModel:
    """A way of pricing passes and engine steps.

    Subclasses implement ``price`` (one pass, as a ``PassPrice``) and may add engine costs:
    ``step_overhead_s`` (once per engine step: a plain decoding step or one speculative
    iteration), ``ngram_lookup_s`` (the CPU's prompt lookup, per iteration) and
    ``draft_model_iteration_s`` (what a draft model's path costs per iteration beyond its passes). ``breakdown``
    splits one pass's time by kernel kind for the page's figure.
    """

    name: str = ""
    label: str = ""

    def price(self, model: Architecture, gpu: GPU, num_seqs, num_positions) -> PassPrice:
        raise NotImplementedError

    def step_overhead_s(self, num_seqs, num_positions=1) -> np.ndarray:
        """Seconds per engine step outside the passes (scheduling, sampling), for n sequences
        with n_pos scored positions each: none in an ideal model."""
        return np.zeros(np.broadcast_shapes(np.shape(num_seqs), np.shape(num_positions)))

    def ngram_lookup_s(self, num_seqs) -> np.ndarray:
        """Seconds the n-gram prompt lookup takes per iteration: none in an ideal model."""
        return np.zeros(np.shape(num_seqs))

    def draft_model_iteration_s(self, num_seqs) -> np.ndarray:
        """Seconds a separate draft model's path adds per iteration beyond its passes: none in an ideal model."""
        return np.zeros(np.shape(num_seqs))

    def breakdown(self, model: Architecture, gpu: GPU, num_seqs, context_sum, num_positions) -> dict:
        """One pass's time by part, {part (one of PASS_PARTS): seconds}; the parts add up to the
        pass's time."""
        raise NotImplementedError

    def roof(self, gpu: GPU) -> tuple[float, float]:
        """(FLOP/s, bytes/s) the model's kernels reach at best: the roofline's roof."""
        return gpu.achieved_flops_per_s, gpu.achieved_bytes_per_s

    # --- derived ---------------------------------------------------------------------------

    def forward_pass(self, model: Architecture, gpu: GPU, num_seqs, context_sum, num_positions) -> PricedPasses:
        """One pass of ``model``: n sequences, cached context C (tokens, summed), n_pos positions each."""
        return PricedPasses(self.price(model, gpu, num_seqs, num_positions), context_sum)

    def repeated_passes(self, model: Architecture, gpu: GPU, num_seqs, context_sum, step, count,
                        num_positions=1) -> PricedPasses:
        """The sum of ``count`` passes at contexts C, C + step, … (each n sequences, n_pos positions).

        A draft model's γ passes are ``repeated_passes(draft, gpu, n, C, n, γ)`` (its context grows
        by one token per sequence per pass); plain decoding's G steps ``(target, gpu, B, B·P, B, G)``.
        """
        return PricedPasses(self.price(model, gpu, num_seqs, num_positions), context_sum, step, count)
