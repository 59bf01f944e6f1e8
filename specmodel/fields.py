"""Every input of the model, declared once.

Each ``Field`` gives a state field its type, bounds or choices, default, the values the site
precomputes (``grid``), its command-line option and its URL key. ``State`` validation, the CLI's
options, the site's grid and URL parser (through the generated manifest) and the tests all read
this table; nothing else types a range or a default.

Choices that come from the catalog (drafters, targets, GPUs, engines) are checked against the
catalog a caller passes (``Catalog.check_state``), not here: the catalog is a parameter.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .acceptance import ACCEPTANCE_SHAPES
from .costs.names import COST_MODELS, DEFAULT_COST_MODEL
from .errors import ModelInputError
from .workloads import WORKLOADS

INT = "int"
FLOAT = "float"
CHOICE = "choice"  # a fixed list of names
CATALOG_KEY = "catalog"  # a key of one section of the catalog


@dataclass(frozen=True)
class Field:
    """One input of the model.

    name: the ``State`` attribute and the JSON key. kind: int, float, choice or catalog.
    default: the essay's opening state. low, high: inclusive bounds of an int, or the open-low /
    closed-high bounds (low, high] of a float. choices: the names a ``choice`` field takes.
    section: the catalog section a ``catalog`` field names a key of. grid: the values the site
    precomputes (None: not a site axis). url_key: the query key on the page. symbol: the
    essay's symbol. help: one line for ``--help``. vllm_name: what vLLM calls the same input
    (its speculative config's ``num_speculative_tokens`` and ``method``, its engine argument
    ``tensor_parallel_size``; vllm/config), where it has one and it is not ambiguous.
    """

    name: str
    kind: str
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    section: str | None = None
    grid: tuple | None = None
    url_key: str | None = None
    symbol: str = ""
    vllm_name: str | None = None

    @property
    def key(self) -> str:
        """The URL query key (the field's name unless the page uses a shorter one)."""
        return self.url_key or self.name

    @property
    def option(self) -> str:
        """The command-line option, ``--output-tokens`` for ``output_tokens``."""
        return "--" + self.name.replace("_", "-")

    def allowed(self, names=None) -> str:
        """What the field accepts, as the error messages say it."""
        if self.kind == INT:
            return f"an integer from {int(self.low):,} to {int(self.high):,}"  # not 1.04858e+06 (a cold read)
        if self.kind == FLOAT:
            return f"a number in ({self.low:g}, {self.high:g}]"
        return ", ".join(names if names is not None else self.choices or ())

    def check(self, value, names=None, where: str | None = None):
        """``value`` if this field accepts it, else ModelInputError naming ``where`` (the field).

        names: the allowed names of a catalog field (its catalog's keys); without them a
        catalog field only has to be a non-empty string.
        """
        where = where or self.name
        if self.kind == INT:
            if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
                raise ModelInputError(where, f"got {value!r}", self.allowed())
            if self.name == "tp" and value not in TENSOR_PARALLEL:
                raise ModelInputError(where, f"got {value!r}", ", ".join(map(str, TENSOR_PARALLEL)))
        elif self.kind == FLOAT:
            ok = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
            if not ok or not self.low < value <= self.high:
                raise ModelInputError(where, f"got {value!r}", self.allowed())
        else:
            allowed = self.choices if self.kind == CHOICE else names
            if not isinstance(value, str) or (allowed is not None and value not in allowed) or not value:
                raise ModelInputError(where, f"got {value!r}", self.allowed(allowed))
        return value

    def parse(self, text: str, names=None):
        """A value from command-line text (``"64"``, ``"0.75"``, ``"ngram"``), checked."""
        if self.kind == INT:
            try:
                value = int(text)
            except ValueError:
                raise ModelInputError(self.option, f"got {text!r}", self.allowed()) from None
        elif self.kind == FLOAT:
            try:
                value = float(text)
            except ValueError:
                raise ModelInputError(self.option, f"got {text!r}", self.allowed()) from None
        else:
            return self.check(text, names, where=self.option)
        try:
            return self.check(value, names, where=self.option)
        except ModelInputError as e:
            # the number as typed ("got 0"), not as parsed ("got 0.0"; found by a cold read)
            raise ModelInputError(self.option, f"got {text.strip()}", e.allowed) from None


TENSOR_PARALLEL = (1, 2, 4, 8)


def nearest_on_axis(values, x: float) -> float:
    """The value of a numeric axis (a field's grid) nearest ``x`` (ties to the lower): where the
    site puts a value it has no data for, such as a drafter's typical α (0.8363 → 0.85)."""
    return min(values, key=lambda v: (abs(v - x), v))


def _alpha_grid() -> tuple[float, ...]:
    # Written as decimals so that 0.15 is 0.15 (not 0.15000000000000002): the page looks values up
    # by equality.
    return tuple(round(0.05 * i, 2) for i in range(1, 20))


FIELDS: dict[str, Field] = {f.name: f for f in (
    Field("batch", INT, 1, "concurrent sequences B", low=1, high=65536,
          grid=tuple(2**i for i in range(11)), symbol="B"),
    Field("context", INT, 2048, "prompt tokens already cached per sequence P", low=1, high=1_048_576,
          grid=(512, 1024, 2048, 4096, 8192, 16384, 32768), symbol="P"),
    Field("drafter", CATALOG_KEY, "qwen3-0.6b", "where the guesses come from", section="drafters",
          grid=(),  # the site's drafters: the catalog's, in its order
          vllm_name="method"),  # speculative_config's method names a kind: ngram, eagle3
    Field("gamma", INT, 4, "num_speculative_tokens γ, draft positions per iteration", low=1, high=32,
          grid=tuple(range(1, 11)), symbol="γ", vllm_name="num_speculative_tokens"),
    Field("alpha", FLOAT, 0.75, "acceptance rate α of the first draft position", low=0, high=1,
          grid=_alpha_grid(), symbol="α"),
    Field("acceptance", CHOICE, "falling", "acceptance across draft positions", choices=ACCEPTANCE_SHAPES,
          grid=ACCEPTANCE_SHAPES),
    Field("workload", CHOICE, "closed-batch", "how sequences come and go", choices=WORKLOADS, grid=WORKLOADS),
    Field("cost_model", CHOICE, DEFAULT_COST_MODEL, "how a pass is priced", choices=COST_MODELS,
          grid=COST_MODELS, url_key="cost"),
    Field("engine", CATALOG_KEY, "vllm", "the serving engine whose overheads the calibrated model adds",
          section="engines"),
    # (not vLLM's "model": the engine's model is the target, its speculative config's the drafter)
    Field("target", CATALOG_KEY, "qwen3-8b", "the target model", section="targets", grid=()),
    Field("gpu", CATALOG_KEY, "h100-sxm", "the GPU", section="gpus", grid=()),
    Field("tp", INT, 1, "GPUs the target is split over (tensor parallelism): 1, 2, 4 or 8", low=1, high=8,
          grid=(1, 2, 4, 8), symbol="tp", vllm_name="tensor_parallel_size"),
    Field("output_tokens", INT, 256, "tokens each sequence generates G", low=1, high=16384, symbol="G"),
)}

# The fields a site state is made of, in URL order.
SITE_FIELDS = tuple(name for name, f in FIELDS.items() if f.grid is not None)

# The acceptance shapes the site's data hold for a configuration other than the default one (the
# fields' default GPU, target and tp): the data budget holds every shape for the essay's own
# configuration only (generator/axes.py configurations).
SITE_OTHER_CONFIGURATION_ACCEPTANCE = ("falling",)


def site_acceptance_shapes(gpu: str, target: str, tp: int) -> tuple[str, ...]:
    """The acceptance shapes the site's precomputed data hold for ``target`` on ``tp`` × ``gpu``:
    every one for the default configuration, falling only for the others. The page prices a fit
    whose shape is not among them at the best fit among those that are, and so does
    ``specmodel fit-metrics --site-grid`` (found once: 2.09× on the page, 2.16× from the command
    line, for one log on H200)."""
    default = (FIELDS["gpu"].default, FIELDS["target"].default, FIELDS["tp"].default)
    return tuple(FIELDS["acceptance"].grid) if (gpu, target, tp) == default else SITE_OTHER_CONFIGURATION_ACCEPTANCE
