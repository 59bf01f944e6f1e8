// Number formatting shared by readouts, live prose numbers and the engine-log line.
//
// The build-time HTML is formatted by Python (generator/filters.py, used by the essay and by
// generator/templates/simulation.html.j2), so these must give the same text for the same
// value, or the page would change under the reader when the script loads. Python's format()
// rounds the exact binary value half-to-even; toFixed() rounds exact ties away from zero. The
// data are rounded to 4 significant digits, which makes exact ties (0.125, 2.625) common.

const GIB = 2 ** 30;
const KIB = 2 ** 10;

// Python's f"{x:.{d}f}" for finite x.
export function fixed(x, d) {
  const text = Math.abs(x).toFixed(d);
  // toFixed(100) is the exact decimal expansion for every value we show: a tie is a 5 followed
  // only by zeros right after the kept digits.
  const exact = Math.abs(x).toFixed(100);
  const point = exact.indexOf(".");
  const rest = exact.slice(point + 1 + d);
  let out = text;
  if (/^50*$/.test(rest)) {
    const kept = exact.slice(0, point + 1 + d).replace(/\.$/, "");
    const last = Number(kept[kept.length - 1]);
    if (last % 2 === 0) out = kept; // half-to-even: stay on the even digit
  }
  return x < 0 || Object.is(x, -0) ? `-${out}` : out;
}

function group(text) {
  const [whole, fraction] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

// Each name: value in SI units → text. The names and formats are generator/filters.py's
// (the prose filters), so a live number reads the same before and after the script runs.
export const FORMATS = {
  times: (v) => `${fixed(v, 2)}×`,
  times1: (v) => `${fixed(v, 1)}×`,
  pct: (v) => `${fixed(v * 100, 0)}%`,
  pct1: (v) => `${fixed(v * 100, 1)}%`,
  gib: (v) => `${fixed(v / GIB, 2)} GiB`,
  gb: (v) => `${group(fixed(v / 1e9, 0))} GB`,
  kib: (v) => `${group(fixed(v / KIB, 0))} KiB`,
  ms: (v) => `${fixed(v * 1e3, 2)} ms`,
  tps: (v) => `${group(fixed(v, 0))} tokens/s`,
  tflop: (v) => `${fixed(v / 1e12, 2)} TFLOP`,
  num: (v) => group(fixed(v, 2)),
  int: (v) => group(fixed(v, 0)),
  // Not prose filters: the per-position list of the engine log, and the memory verdict.
  positions: (list) => list.map((v) => fixed(v, 3)).join(", "),
  fits: (v) => (v ? "fits" : "does not fit"),
};

export function format(kind, value) {
  const f = FORMATS[kind];
  if (!f) throw new Error(`unknown number format "${kind}"`);
  return f(value);
}
