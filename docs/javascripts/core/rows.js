// Each chart's rows at a state, from the chart's declaration in the manifest ("charts"): the
// build reads the same declarations (generator/chart_rows.py) to draw the default pictures, so
// both sides interpret one source. A declaration maps each dataset to blocks; a block walks some
// axes (every other dim at the state) and emits one row per template per point.
import { lookup } from "./data.js";

function product(axes, dims) {
  return dims.reduce((points, dim) => points.flatMap((p) => axes[dim].map((v) => ({ ...p, [dim]: v }))), [{}]);
}

function resolve(spec, data, coords, point, state) {
  // A template value names one kind; "at" only qualifies "field" (keys arrive sorted).
  const kind = Object.keys(spec).find((k) => k !== "at");
  const value = spec[kind];
  switch (kind) {
    case "axis":
      return coords[value];
    case "field":
      return lookup(data, value, coords, spec.at ?? {});
    case "current":
      return value.every((dim) => point[dim] === state[dim]);
    case "literal":
      return value;
    case "label":
      return data.manifest.labels[value][coords[value]];
    case "field_label": {
      const [dim, name] = value;
      const raw = lookup(data, name, coords, {});
      return data.manifest.labels[dim][raw] ?? raw;
    }
    case "meta":
      return data.manifest.configuration[value];
    default:
      throw new Error(`unknown row value ${JSON.stringify(spec)}`);
  }
}

function rows(blocks, data, state) {
  return blocks.flatMap((block) =>
    product({ ...data.manifest.axes, ...data.config?.axes }, block.walk).flatMap((point) => {
      const coords = { ...state, ...point };
      return block.rows.map((template) =>
        Object.fromEntries(Object.entries(template).map(([key, spec]) => [key, resolve(spec, data, coords, point, state)])),
      );
    }),
  );
}

// Whether the chart's rows depend on the state (and so on the state's data files).
export function followsState(manifest, chart) {
  return Object.hasOwn(manifest.charts, chart);
}

// {dataset: rows} of `chart` at `state`, or null for a static chart (keep what the spec loaded).
export function datasetsFor(chart, data, state) {
  const declared = data.manifest.charts[chart];
  if (!declared) return null;
  return Object.fromEntries(Object.entries(declared.rows).map(([name, blocks]) => [name, rows(blocks, data, state)]));
}
