// Number formatting shared by readouts, live prose numbers and the engine-log line.
//
// The build-time HTML is formatted by Python (the Jinja macros in
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

// Decimals that leave `n` significant digits (never fewer than 0): 309.5 → 0, 6.232 → 2.
function decimalsFor(x, n) {
  if (x === 0) return n - 1;
  const exponent = Number(Math.abs(x).toExponential(n - 1).split("e")[1]);
  return Math.max(0, n - 1 - exponent);
}

function group(text) {
  const [whole, fraction] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

// Python's f"{x:,.{decimals}f}" with `n` significant digits.
export function significant(x, n) {
  return group(fixed(x, decimalsFor(x, n)));
}

// Each kind: value in SI units → text. Mirrors the `fmt` macro of simulation.html.j2.
export const FORMATS = {
  times: (v) => `${fixed(v, 2)}×`,
  percent: (v) => `${fixed(v * 100, Math.abs(v) < 0.01 ? 1 : 0)}%`,
  tps: (v) => `${significant(v, 3)} tokens/s`,
  tokens: (v) => fixed(v, 2),
  gib: (v) => `${significant(v / GIB, 3)} GiB`,
  gb: (v) => `${significant(v / 1e9, 3)} GB`,
  kib: (v) => `${significant(v / KIB, 3)} KiB`,
  tflop: (v) => `${significant(v / 1e12, 3)} TFLOP`,
  ms: (v) => `${significant(v * 1e3, 3)} ms`,
  number: (v) => significant(v, 3),
  int: (v) => group(fixed(v, 0)),
  fits: (v) => (v ? "fits" : "does not fit"),
};

export function format(kind, value) {
  const f = FORMATS[kind];
  if (!f) throw new Error(`unknown number format "${kind}"`);
  return f(value);
}
