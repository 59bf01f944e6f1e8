// Fitting the acceptance model to a reading, as specmodel/metrics/fit.py does with the site's α
// grid: the model's per-position acceptance and mean acceptance lengths are looked up in the
// manifest's acceptance_table (generator/acceptance_table.py), never computed here; only the
// residuals against the reader's numbers are.

import { fixed } from "../core/format.js";

export const PER_POSITION = "per-position rates";
export const MEAN_LENGTH = "mean acceptance length";
export const V0_RATE = "V0 draft acceptance rate"; // fit.py: the poor_fit key for a V0 line's rate

export class FitError extends Error {}

// fit.py's GRID_NOTE_RESIDUAL: a one-number fit further than this from the text's mean (printed
// to two decimals) says that the α grid's step limits it.
export const GRID_NOTE_RESIDUAL = 0.005;
export const BELOW_GRID = "below";
export const ABOVE_GRID = "above";

// fit.py grid_edge: BELOW_GRID or ABOVE_GRID where α is the grid's lowest or highest (the highest
// only below 1) and the text's mean acceptance length lies past it by more than GRID_NOTE_RESIDUAL
// (excess: the text's minus the fit's, tokens); else null.
export function gridEdge(alpha, alphas, excess) {
  if (alpha === Math.min(...alphas) && excess < -GRID_NOTE_RESIDUAL) return BELOW_GRID;
  if (alpha === Math.max(...alphas) && alpha < 1 && excess > GRID_NOTE_RESIDUAL) return ABOVE_GRID;
  return null;
}

// fit.py residual_decimals: 3, or as many more (up to 6) as it takes for the chosen shape's
// residual not to read as another shape's where the two differ (found by a cold read: falling
// 0.029 "(best)" beside the same 0.029).
export function residualDecimals(fit) {
  const chosen = fit.residuals[fit.shape] ?? fit.residual;
  const others = Object.entries(fit.residuals).filter(([s, r]) => s !== fit.shape && r !== chosen).map(([, r]) => r);
  let d = 3;
  while (d < 6 && others.some((r) => fixed(r, d) === fixed(chosen, d))) d += 1;
  return d;
}

// What limits a fit, in the command line's words (specmodel/metrics/report.py fit_note): a
// one-number fit's residual is the grid's step unless no α reaches the text's mean (found once:
// "No acceptance shape describes these numbers well" for a V0 line 0.076 from α = 0.90).
export function fitLimit(fit, poorFit, alphaText) {
  const rates = Object.values(fit.v0_rates ?? {});
  if (rates.length) {
    // fit.py V0_RATE: no shape gives both the length and V0's rate
    const nearest = rates.reduce((a, b) => (Math.abs(b - fit.measured_v0_rate) < Math.abs(a - fit.measured_v0_rate) ? b : a));
    if (Math.abs(nearest - fit.measured_v0_rate) > poorFit[V0_RATE]) {
      return `no acceptance shape gives both this mean acceptance length and V0's draft acceptance rate ` +
        `(${fixed(fit.measured_v0_rate, 3)} against ${fixed(nearest, 3)} at best): the answer is only as good as this fit`;
    }
  }
  if (fit.grid_edge) {
    // report.py grid_edge_note: the grid's end, not the shape, is what the fit misses by; speedups
    // rise with α at every γ ≥ 1, so the priced ones bound the text's from that side
    const low = fit.grid_edge === BELOW_GRID;
    return `the measured acceptance lies ${fit.grid_edge} the α grid, which ${low ? "starts" : "ends"} at ${alphaText}: ` +
      `the answer prices α = ${alphaText}, so its speedups are ${low ? "upper" : "lower"} bounds`;
  }
  if (fit.basis === MEAN_LENGTH) {
    if (!fit.out_of_range) {
      return fit.residual > GRID_NOTE_RESIDUAL
        ? `α = ${alphaText} is the closest α on the grid: its step limits the match`
        : null;
    }
    return fit.residual > poorFit[MEAN_LENGTH]
      ? `no α gives acceptance ${fit.shape} this mean acceptance length at γ = ${fit.gamma}: the answer is only as good as this fit`
      : null;
  }
  return fit.residual > poorFit[PER_POSITION]
    ? "no acceptance shape describes these numbers well: the answer is only as good as this fit"
    : null;
}

// {shape, alpha, gamma, residual, residuals, alphas, basis, fitted_per_position,
//  fitted_mean_acceptance_length, measured_mean_acceptance_length, truncated, out_of_range,
//  grid_edge}; alphas: the best α
// of each shape tried (a configuration whose data hold fewer shapes uses its own shape's best). A
// reading with more draft positions than the table holds is fitted on the first ones (the
// simulation's γ stops there), and `truncated` says how many the text has.
// measured_mean_acceptance_length: the text's, over the same γ positions as the fit, so that a
// summary never sets a cut γ beside a mean over every position (found once: "γ = 10, mean
// acceptance length 101.00" from 200 positions); null where the text's mean cannot be cut (no
// per-position rates).
export function fitOnGrid(reading, table) {
  const alphas = table.alphas;
  const top = table.per_position[table.shapes[0]][0].length;
  if (reading.per_position_acceptance && reading.per_position_acceptance.length) {
    const measured = reading.per_position_acceptance.slice(0, top);
    const gamma = measured.length;
    let best = null;
    const residuals = {};
    const alphas = {};
    for (const shape of table.shapes) {
      let shapeBest = null;
      table.per_position[shape].forEach((row, i) => {
        let s = 0;
        for (let j = 0; j < gamma; j += 1) s += (row[j] - measured[j]) ** 2;
        const rms = Math.sqrt(s / gamma);
        if (shapeBest === null || rms < shapeBest.rms) shapeBest = { rms, i };
      });
      residuals[shape] = shapeBest.rms;
      alphas[shape] = table.alphas[shapeBest.i];
      if (best === null || shapeBest.rms < best.residual - 1e-12) best = { shape, i: shapeBest.i, residual: shapeBest.rms };
    }
    // 1 + Σ rates is the mean acceptance length of drafts cut at γ (the rates are unconditional).
    // Where the text gives its own mean, from its counts, a cut's is that mean less what the
    // positions past the cut add: a part never reads above its whole (found by a cold read: printed
    // rates summing to 2.370 over the first 10 of 15 positions beside 2.369 over all 15).
    const sum = (rates) => rates.reduce((a, b) => a + (Number.isNaN(b) ? 0 : b), 0);
    const whole = reading.mean_acceptance_length;
    const measuredMean = whole === null ? 1 + sum(measured) : whole - sum(reading.per_position_acceptance.slice(top));
    const fitted = result(table, best.shape, best.i, gamma, best.residual, residuals, alphas, PER_POSITION, reading, top, measuredMean);
    // fit.py: the text's mean over the fitted positions, 1 + Σ rates, against the fit's
    const excess = 1 + measured.reduce((a, b) => a + b, 0) - fitted.fitted_mean_acceptance_length;
    return { ...fitted, grid_edge: gridEdge(fitted.alpha, table.alphas, excess) };
  }
  if (reading.mean_acceptance_length !== null && reading.gamma) {
    // fit.py: one length cannot tell the shapes apart, so falling (the model's default) is
    // assumed, unless V0's draft acceptance rate, an average over positions, picks the shape
    const gamma = Math.min(reading.gamma, top);
    const m = reading.mean_acceptance_length;
    const rate = reading.v0_draft_acceptance_rate;
    const shapes = rate !== null && Number.isFinite(rate) ? table.shapes : [table.shapes[0]];
    const residuals = {};
    const alphas = {};
    const index = {};
    const beyond = {};
    const rates = {};
    for (const shape of shapes) {
      let best = null;
      const means = table.mean_acceptance_length[shape].map((row) => row[gamma - 1]);
      means.forEach((mean, i) => {
        const gap = Math.abs(mean - m);
        if (best === null || gap < best.gap) best = { gap, i };
      });
      residuals[shape] = best.gap;
      alphas[shape] = table.alphas[best.i];
      index[shape] = best.i;
      // fit.py's out_of_range: beyond every α's mean, the residual is no longer the grid's step
      beyond[shape] = !(Math.min(...means) <= m && m <= Math.max(...means));
      if (shapes.length > 1) rates[shape] = table.mean_conditional_acceptance[shape][best.i][gamma - 1];
    }
    // a shape that reaches the length first; among them the rate nearest V0's (ties: the earlier)
    const worse = (a, b) => (beyond[a] !== beyond[b] ? beyond[a] : shapes.length > 1 && Math.abs(rates[a] - rate) > Math.abs(rates[b] - rate));
    let shape = shapes[0];
    for (const s of shapes.slice(1)) if (worse(shape, s)) shape = s;
    const fitted = result(table, shape, index[shape], gamma, residuals[shape], residuals, alphas, MEAN_LENGTH, reading, top,
      gamma < reading.gamma ? null : reading.mean_acceptance_length);
    return { ...fitted, out_of_range: beyond[shape], v0_rates: rates, measured_v0_rate: shapes.length > 1 ? rate : null,
      grid_edge: gridEdge(fitted.alpha, table.alphas, m - fitted.fitted_mean_acceptance_length) };
  }
  const note = reading.notes.length ? reading.notes[reading.notes.length - 1] : "The text gives no mean acceptance length.";
  // the note's sentence goes on after a colon: lower case (fit.py)
  const missing = note.charAt(0).toLowerCase() + note.slice(1);
  throw new FitError(`The ${reading.source} text cannot be fitted: ${missing}`);
}

function result(table, shape, i, gamma, residual, residuals, alphas, basis, reading, top, measuredMean) {
  const perPos = table.per_position[shape][i].slice(0, gamma);
  return {
    shape,
    alpha: table.alphas[i],
    gamma,
    residual,
    residuals,
    alphas,
    basis,
    fitted_per_position: perPos,
    fitted_mean_acceptance_length: table.mean_acceptance_length[shape][i][gamma - 1],
    measured_mean_acceptance_length: measuredMean,
    truncated: (reading.gamma ?? gamma) > top ? reading.gamma : null,
    out_of_range: false,
    v0_rates: {},
    measured_v0_rate: null,
    grid_edge: null,
  };
}
