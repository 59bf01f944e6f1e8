// Number formatting: the format table is the build's (generator/formats.py, in the manifest's
// "formats"), so the prose, the build-time readouts and the script write the same text for the
// same value. Python's format() rounds the exact binary value half to even; toFixed() rounds
// exact ties away from zero: fixed() below does what Python does.

let FORMATS = {};

// The manifest's format table; until it is set, nothing can be written.
export function useFormats(formats) {
  FORMATS = formats ?? {};
}

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

// formats.py's small_decimals: below 1 of the unit, the smaller unit to its significant figures
// ("9.12 µs", not "0.01 ms"); null where the value is written as it is.
function smallUnit(spec, x) {
  const small = spec.below_one;
  if (!small || x === 0 || Math.abs(x) * small.scale >= small.below) return null;
  const decimals = Math.max(0, small.significant - 1 - Math.floor(Math.log10(Math.abs(x * small.scale))));
  // rounded once, in the format's unit as a table's column writes it, then moved (formats.py)
  const y = Number(fixed(x, decimals + Math.round(Math.log10(small.scale)))) * small.scale;
  return { y, decimals, suffix: small.suffix };
}

// formats.py's beside_one_decimals: a value that is not 1 never reads as 1 ("0.998×", not
// "1.00×"): up to spec.beside_one more decimals, and the format's own past them (float noise).
function besideOneDecimals(spec, x) {
  const d = spec.decimals;
  if (x === 1 || Number(fixed(x, d)) !== 1) return d;
  for (let more = d + 1; more <= d + (spec.beside_one ?? 0); more += 1) {
    if (Number(fixed(x, more)) !== 1) return more;
  }
  return d;
}

// formats.py's zero_is_nothing: an amount (a unit word after the number), not a share.
function zeroIsNothing(spec) {
  return (spec.suffix ?? "").startsWith("\u00a0"); // formats.py UNIT_SPACE
}

function number(spec, value) {
  // The same operations in the same order as formats.py: multiply, then divide.
  // (+ 0: a negative zero is written as zero, as formats.py writes it)
  const x = (Number(value) * (spec.scale ?? 1)) / (spec.divide ?? 1) + 0;
  if (x === 0 && zeroIsNothing(spec)) return `0${spec.suffix}`; // formats.py: nothing at all, not "0.00"
  const small = smallUnit(spec, x);
  if (small) return fixed(small.y, small.decimals) + small.suffix;
  let shown = x;
  if (spec.round === "up") {
    // formats.py: divide by the unit's step (exact for whole bytes), then round up
    const step = 10 ** spec.decimals;
    shown = Math.ceil((Number(value) * (spec.scale ?? 1)) / ((spec.divide ?? 1) / step)) / step;
  }
  const text = fixed(shown, besideOneDecimals(spec, shown));
  return (spec.group ? group(text) : text) + (spec.suffix ?? "");
}

// formats.py's _compared: a word for the value as written to the format's decimals, beside 1.
function compared(spec, value) {
  // the value as "times" writes it, more decimals beside 1 included
  const x = Number(value);
  const shown = Number(fixed(x, besideOneDecimals(spec, x)));
  if (shown > spec.compare) return spec.above;
  return shown === spec.compare ? spec.equal : spec.below;
}

export function format(kind, value) {
  const spec = FORMATS[kind];
  if (!spec) throw new Error(`unknown number format "${kind}"`);
  if ("true" in spec) return value ? spec.true : spec.false;
  if ("join" in spec) return value.map((v) => number(spec, v)).join(spec.join);
  if ("compare" in spec) return compared(spec, value);
  return number(spec, value);
}

// formats.py's format_cell: a data table's column has one unit, so a format that writes small
// values in a smaller unit keeps the column's, and a value too small for its decimals reads as
// such ("< 0.01 ms"), not as none at all.
export function formatCell(kind, value) {
  const spec = FORMATS[kind];
  if (!spec || spec.decimals === undefined || spec.join || spec.compare !== undefined || value === null || value === undefined) {
    return format(kind, value);
  }
  const x = (Number(value) * (spec.scale ?? 1)) / (spec.divide ?? 1);
  if (!spec.below_one) return tooSmall(spec, x) ?? format(kind, value);
  const column = { ...spec, below_one: undefined };
  // formats.py format_cell: the smaller unit's significant figures in the column's unit
  const small = smallUnit(spec, x);
  if (small && x !== 0) return fixed(x, small.decimals + Math.round(Math.log10(spec.below_one.scale))) + (spec.suffix ?? "");
  return tooSmall(spec, x) ?? number(column, value);
}

// formats.py _too_small: "< 0.001" for a value that is not 0 but its decimals would write as 0.
function tooSmall(spec, x) {
  if (x === 0 || !Number.isFinite(x) || spec.round === "up" || Number(fixed(Math.abs(x), spec.decimals)) !== 0) return null;
  return `${x > 0 ? "< " : "> -"}${fixed(10 ** -spec.decimals, spec.decimals)}${spec.suffix ?? ""}`;
}
