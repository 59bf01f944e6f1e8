"""Command line: ``specmodel evaluate | vllm-log | claims`` (also ``python -m specmodel``).

The only module of the package that does I/O. Bad input exits with status 2 and one line that
names the option and what it accepts; never a traceback.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from importlib import resources

from .acceptance import ACCEPTANCE_SHAPES
from .catalog import CATALOG
from .claims import evaluate_claims
from .errors import ModelInputError
from .readouts import READOUT_KEYS, evaluate
from .state import LIMITS, State
from .vllm import engine_log_line, engine_log_window, speculative_config_flag
from .workloads import WORKLOADS

GIB = 2**30
KIB = 2**10


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (no usage dump) and exit status 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse hook
        self.exit(2, f"specmodel: error: {message}\n")


def _int_option(name: str):
    low, high = LIMITS[name]

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"got {text!r}; allowed: an integer from {low} to {high}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"got {value}; allowed: an integer from {low} to {high}")
        return value

    return parse


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"got {text!r}; allowed: a number in (0, 1]") from None
    if not math.isfinite(value) or not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"got {text}; allowed: a number in (0, 1]")
    return value


def _choice(choices):
    def parse(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"got {text!r}; allowed: {', '.join(choices)}")
        return text

    return parse


def _add_state_options(parser: argparse.ArgumentParser) -> None:
    d = State()
    parser.add_argument("--batch", type=_int_option("batch"), default=d.batch, help=f"concurrent sequences B (default {d.batch})")
    parser.add_argument("--context", type=_int_option("context"), default=d.context, help=f"cached prompt tokens per sequence P (default {d.context})")
    parser.add_argument("--drafter", type=_choice(list(CATALOG.drafters)), default=d.drafter, help=f"{', '.join(CATALOG.drafters)} (default {d.drafter})")
    parser.add_argument("--gamma", type=_int_option("gamma"), default=d.gamma, help=f"num_speculative_tokens γ (default {d.gamma})")
    parser.add_argument("--alpha", type=_alpha, default=d.alpha, help=f"acceptance rate α in (0, 1] (default {d.alpha})")
    parser.add_argument("--acceptance", type=_choice(ACCEPTANCE_SHAPES), default=d.acceptance, help=f"acceptance across positions: {', '.join(ACCEPTANCE_SHAPES)} (default {d.acceptance})")
    parser.add_argument("--workload", type=_choice(WORKLOADS), default=d.workload, help=f"{', '.join(WORKLOADS)} (default {d.workload})")
    parser.add_argument("--target", type=_choice(list(CATALOG.targets)), default=d.target, help=f"target model (default {d.target})")
    parser.add_argument("--gpu", type=_choice(list(CATALOG.gpus)), default=d.gpu, help=f"GPU (default {d.gpu})")
    parser.add_argument("--output-tokens", dest="output_tokens", type=_int_option("output_tokens"), default=d.output_tokens, help=f"tokens generated per sequence G (default {d.output_tokens})")


def _state(args: argparse.Namespace) -> State:
    return State(**{k: getattr(args, k) for k in State.__dataclass_fields__})


def _table(state: State) -> str:
    r = evaluate(state)
    capacity = CATALOG.gpus[state.gpu].memory_capacity_bytes
    pp = ", ".join(f"{p:.3f}" for p in r.per_position_acceptance)
    rows = [
        ("speedup", f"{r.speedup:.3f}×"),
        ("speculative tokens/s", f"{r.spec_tokens_per_s:,.1f} tokens/s"),
        ("plain tokens/s", f"{r.plain_tokens_per_s:,.1f} tokens/s"),
        ("mean acceptance length", f"{r.mean_acceptance_length:.3f} tokens"),
        ("per-position acceptance", pp),
        ("draft share of wall clock", f"{r.draft_time_share:.1%}"),
        ("arithmetic ratio", f"{r.arithmetic_ratio:.3f}×"),
        ("verify pass bytes", f"{r.verify_bytes / GIB:.2f} GiB"),
        ("verify pass FLOPs", f"{r.verify_flops / 1e12:.4f} TFLOP"),
        ("verify memory time", f"{r.verify_memory_time_s * 1e3:.3f} ms"),
        ("verify arithmetic time", f"{r.verify_compute_time_s * 1e3:.3f} ms"),
        ("tensor cores idle (verify)", f"{r.tensor_core_idle_fraction:.1%}"),
        ("target weights", f"{r.target_weight_bytes / GIB:.2f} GiB"),
        ("draft weights", f"{r.draft_weight_bytes / GIB:.2f} GiB"),
        ("target KV cache per token", f"{r.target_kv_bytes_per_token / KIB:.0f} KiB"),
        ("draft KV cache per token", f"{r.draft_kv_bytes_per_token / KIB:.0f} KiB"),
        ("memory required", f"{r.memory_required_bytes / 1e9:.1f} GB of {capacity / 1e9:.0f} GB"
         + ("" if r.fits_in_memory else "  (does not fit)")),
    ]
    header = (f"{state.target} on {state.gpu}: batch {state.batch}, context {state.context}, "
              f"drafter {state.drafter}, γ={state.gamma}, α={state.alpha}, {state.acceptance}, {state.workload}")
    width = max(len(k) for k, _ in rows)
    return "\n".join([header] + [f"  {k:<{width}}  {v}" for k, v in rows])


def _claims() -> tuple[str, bool]:
    rows = evaluate_claims(resources.files("specmodel").joinpath("essay_claims.csv").read_text(encoding="utf-8"))
    lines = [f"{'id':<22} {'seed':>10} {'expected':>11} {'ours':>11}  within"]
    for row in rows:
        lines.append(f"{row['id']:<22} {row['seed_value']:>10} {row['expected']:>11.6g} {row['ours']:>11.6g}  "
                     f"{'yes' if row['ok'] else 'NO'}  {row['what']}")
    all_ok = all(row["ok"] for row in rows)
    lines.append("every row within tolerance" if all_ok else "SOME ROWS OUTSIDE TOLERANCE")
    return "\n".join(lines), all_ok


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="specmodel", description="What speculative decoding costs: the roofline cost model.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ev = sub.add_parser("evaluate", help="every readout at one state")
    _add_state_options(ev)
    ev.add_argument("--json", action="store_true", help="one JSON object keyed by the readout names, unrounded")
    log = sub.add_parser("vllm-log", help="vLLM's --speculative-config and SpecDecodingLogging line for a state")
    _add_state_options(log)
    sub.add_parser("claims", help="every number the seed essay quotes, beside ours")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "claims":
            text, ok = _claims()
            print(text)
            return 0 if ok else 1
        state = _state(args)
        if args.command == "evaluate":
            if args.json:
                print(json.dumps({k: v for k, v in evaluate(state).as_dict().items() if k in READOUT_KEYS}))
            else:
                print(_table(state))
        else:
            r = evaluate(state)
            print(speculative_config_flag(state))
            print(engine_log_line(engine_log_window(state, r)))
    except ModelInputError as e:
        print(f"specmodel: error: {e}", file=sys.stderr)
        return 2
    return 0
