"""The acceptance rate at which speculation starts to pay: the smallest α for which some γ beats
plain decoding at a state, found on the model itself rather than read off the site's 0.05 grid
(found by a cold read: "it would need α of at least 0.85" at 64 sequences, where 0.84 already
gives 1.005× at γ = 2)."""
from __future__ import annotations

from .catalog import Catalog
from .readouts import evaluate
from .state import State

ALPHA_TOLERANCE = 5e-4


def break_even_alpha(state: State, gammas, catalog: Catalog, low: float = 0.01, high: float = 0.99,
                     tolerance: float = ALPHA_TOLERANCE) -> float | None:
    """The smallest α in [low, high] (to within ``tolerance``) at which the best γ of ``gammas``
    gives a speedup above 1 at ``state`` (its own α and γ ignored), by bisection: the speedup at
    a fixed γ rises with α (every per-position acceptance rises with it; Leviathan et al. 2023,
    eq. 1 for the i.i.d. shape). Returns α (a probability), ``low`` if speculation already pays
    there, or None if it does not pay even at ``high``. Raises ModelInputError for a bad state."""
    def pays(alpha: float) -> bool:
        return any(evaluate(state.replace(alpha=alpha, gamma=g), catalog=catalog).speedup > 1 for g in gammas)

    if pays(low):
        return low
    if not pays(high):
        return None
    while high - low > tolerance:
        mid = (low + high) / 2
        low, high = (low, mid) if pays(mid) else (mid, high)
    return high
