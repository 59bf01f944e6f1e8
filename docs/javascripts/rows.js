// Each chart's `table` rows for a state: the page's twin of generator/chart_rows.py (which
// renders the default-state SVGs). Keep the two in step; the row formats are ARCHITECTURE.md's.
import { axisOf, lookup } from "./data.js";

// Unit conversion leaves float noise (6.232000000000001 ms); chart_rows.py rounds the same way.
const sig4 = (x) => (x ? Number(x.toPrecision(4)) : 0);

function ladder(data, state) {
  return data.manifest.axes.batch.map((batch) => {
    const speedup = lookup(data, "speedup", state, { batch });
    return {
      batch,
      speedup,
      drafter: state.drafter,
      outcome: speedup > 1 ? "faster" : "slower",
      current: batch === state.batch,
    };
  });
}

function gamma(data, state) {
  return data.manifest.axes.gamma.map((g) => ({
    gamma: g,
    speedup: lookup(data, "speedup", state, { gamma: g }),
    current: g === state.gamma,
  }));
}

const PHASES = {
  draft: ["draft_memory_time_s", "draft_compute_time_s"],
  verify: ["verify_memory_time_s", "verify_compute_time_s"],
  plain: ["plain_pass_memory_time_s", "plain_pass_compute_time_s"],
};

function iteration(data, state) {
  return Object.entries(PHASES).flatMap(([phase, [memory, arithmetic]]) => [
    { phase, part: "memory", time_ms: sig4(lookup(data, memory, state) * 1000) },
    { phase, part: "arithmetic", time_ms: sig4(lookup(data, arithmetic, state) * 1000) },
  ]);
}

function roofline(data, state) {
  return data.manifest.axes.batch.map((batch) => ({
    batch,
    arithmetic_intensity: lookup(data, "verify_arithmetic_intensity", state, { batch }),
    attained_flops_per_s: lookup(data, "verify_attained_flops_per_s", state, { batch }),
    current: batch === state.batch,
  }));
}

function acceptance(data, state) {
  // Per-position acceptance is a prefix product, the same for every γ, so the longest list
  // (γ = max) holds all positions.
  const longest = Math.max(...data.manifest.axes.gamma);
  const p = lookup(data, "per_position_acceptance", state, { gamma: longest });
  // A position "pays" when it is inside the best γ and speculating at that γ wins at all.
  const best = lookup(data, "best_gamma", state);
  const cutoff = lookup(data, "speedup", state, { gamma: best }) > 1 ? best : 0;
  return p.map((value, i) => ({ position: i + 1, per_position_acceptance: value, pays: i + 1 <= cutoff }));
}

function closedForm(data, state) {
  const ceiling = lookup(data, "ceiling", state);
  return axisOf(data, "expected_tokens", "gamma_cf").map((g) => ({
    gamma: g,
    expected_tokens: lookup(data, "expected_tokens", state, { gamma_cf: g }),
    ceiling,
  }));
}

function decision(data, state) {
  const { batch: batches, context: contexts, drafter: drafters } = data.manifest.axes;
  return batches.flatMap((batch) =>
    contexts.map((context) => {
      const at = { batch, context };
      const g = lookup(data, "decision_gamma", state, at);
      const speedup = lookup(data, "decision_speedup", state, at);
      const drafter = drafters[lookup(data, "decision_drafter", state, at)];
      return {
        batch,
        context,
        drafter,
        gamma: g,
        speedup,
        // toFixed on purpose: chart_rows.py reproduces its half-up rounding for the SVG.
        label: `γ${g}\n${speedup.toFixed(2)}×`,
        // the best choice's weights and caches against the card's memory
        fits: Boolean(lookup(data, "fits_in_memory", state, { ...at, drafter })),
      };
    }),
  );
}

// memory and sampler are static: their rows never change, so they are not listed.
const BUILDERS = { ladder, gamma, iteration, roofline, acceptance, closed_form: closedForm, decision };

// Whether the chart's rows depend on the state (and so on the state's data files).
export function followsState(chart) {
  return Object.hasOwn(BUILDERS, chart);
}

// The chart's `table` rows at `state`, or null for a static chart (keep what the spec loaded).
export function rowsFor(chart, data, state) {
  const build = BUILDERS[chart];
  return build ? build(data, state) : null;
}
