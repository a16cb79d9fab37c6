/**
 * `npm run backtest`: the month-end forecast replayed over a corpus of generated daily series with known
 * parameters, at as-of days 3, 7, 10, 15, 20 and 25 of each month, for four methods — the model
 * (provider/budget/model.ts), today's trailing 7-day mean, run-rate (month to date ÷ days elapsed × days in
 * month) and seasonal-naive (each day left as the same weekday a week before). Prints, per method and
 * as-of day, the median and 90th-percentile absolute % error of the month's total, the bias, and how often
 * the truth fell at or under the model's p80 and p90; writes docs/forecast-backtest.json.
 *
 *   npm run backtest [-- --series 40] [-- --by-kind]
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ticks } from "../cli/report/svg";
import { forecastDays } from "../provider/budget/model";
import { MODEL_HISTORY_DAYS } from "../provider/check";

const ROOT = resolve(__dirname, "..", "..");
const AS_OF = [3, 7, 10, 15, 20, 25];
const METHODS = ["model", "trailing-mean", "run-rate", "seasonal-naive"] as const;
type Method = (typeof METHODS)[number];

/** mulberry32: a small seeded generator, so the corpus is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The kinds of series in the corpus and their parameters. */
const KINDS = [
  "flat",
  "weekly-strong",
  "weekly-mild",
  "growth",
  "step-up",
  "step-down",
  "spikes",
  "new-project",
  "zero-days",
] as const;
type Kind = (typeof KINDS)[number];

/** A generated series: amounts of days `start`.. (day numbers since 1970-01-01). */
function generate(kind: Kind, seed: number, start: number, days: number): number[] {
  const r = rng(seed * 7919 + KINDS.indexOf(kind));
  const base = 200 + r() * 2000;
  const noise = 0.06 + r() * 0.12;
  const stepAt = Math.floor(days * (0.4 + r() * 0.5));
  const out: number[] = [];
  for (let i = 0; i < days; i++) {
    const wd = (start + i + 4) % 7;
    const weekend = wd === 0 || wd === 6;
    let v = base;
    if (kind === "weekly-strong") v *= weekend ? 0.35 : 1.2;
    if (kind === "weekly-mild") v *= weekend ? 0.8 : 1.08;
    if (kind === "growth") v *= 1.006 ** i;
    if (kind === "step-up" && i >= stepAt) v *= 1.7;
    if (kind === "step-down" && i >= stepAt) v *= 0.5;
    v *= 1 + noise * (r() * 2 - 1) * 1.5;
    if (kind === "spikes" && r() < 0.04) v *= 4 + r() * 4;
    if (kind === "zero-days" && r() < 0.1) v = 0;
    if (kind === "new-project" && i < days - 40) v = 0;
    out.push(Math.max(0, Math.round(v * 100) / 100));
  }
  return out;
}

const utcDayOf = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 86_400_000;

interface Sample {
  kind: Kind;
  asOf: number;
  method: Method;
  /** (forecast − truth) / truth */
  error: number;
  under80?: boolean;
  under90?: boolean;
}

function main(): void {
  const perKind = Number(process.argv[process.argv.indexOf("--series") + 1] || 30) || 30;
  const start = utcDayOf(2025, 7, 1);
  const days = 200; // July 2025 to mid-January 2026: months Oct, Nov, Dec evaluated
  const months = [
    [2025, 10],
    [2025, 11],
    [2025, 12],
  ] as const;
  const samples: Sample[] = [];
  for (const kind of KINDS) {
    for (let s = 0; s < perKind; s++) {
      const a = generate(kind, s + 1, start, days);
      for (const [y, m] of months) {
        const first = utcDayOf(y, m, 1) - start;
        const len = new Date(Date.UTC(y, m, 0)).getUTCDate();
        const truth = a.slice(first, first + len).reduce((x, v) => x + v, 0);
        if (truth <= 0) continue;
        for (const d of AS_OF) {
          const today = first + d - 1; // index of the as-of day; evaluated at its start
          // what `costgate check` reads: the model's history window, no more
          const history = a.slice(Math.max(0, today - MODEL_HISTORY_DAYS), today);
          const mtd = a.slice(first, today).reduce((x, v) => x + v, 0);
          const lastIdx = first + len - 1;
          const daysLeftAfterToday = lastIdx - today;
          const model = forecastDays(trimLeadingZeros(history), start + today, 0, start + lastIdx);
          const last7 = history.slice(-7);
          const trailing =
            mtd + (last7.reduce((x, v) => x + v, 0) / Math.max(1, last7.length)) * daysLeftAfterToday;
          const elapsed = d - 1;
          const runRate = elapsed > 0 ? (mtd / elapsed) * len : mtd;
          let naive = mtd;
          // the last observed week, repeated (never a day from the as-of day on)
          for (let i = today; i <= lastIdx; i++) naive += a[today - 7 + ((i - today) % 7)] ?? 0;
          const forecasts: Record<Method, number | undefined> = {
            model: model.remaining ? mtd + model.remaining.p50 : undefined,
            "trailing-mean": trailing,
            "run-rate": runRate,
            "seasonal-naive": naive,
          };
          for (const method of METHODS) {
            const f = forecasts[method];
            if (f === undefined) continue;
            const sample: Sample = { kind, asOf: d, method, error: (f - truth) / truth };
            if (method === "model" && model.remaining) {
              sample.under80 = truth <= mtd + model.remaining.p80 + 1e-9;
              sample.under90 = truth <= mtd + model.remaining.p90 + 1e-9;
            }
            samples.push(sample);
          }
        }
      }
    }
  }
  if (process.argv.includes("--by-kind")) {
    // per kind of series: the median |error| % of each method at each as-of day
    process.stdout.write(
      `\nby kind: median |err| % (model / trailing / run-rate / naive) at days ${AS_OF.join(", ")}\n`,
    );
    for (const kind of KINDS) {
      const cells = AS_OF.map((d) =>
        METHODS.map((method) => {
          const xs = samples.filter((x) => x.kind === kind && x.asOf === d && x.method === method);
          return xs.length
            ? quantileOf(
                xs.map((x) => Math.abs(x.error) * 100),
                0.5,
              ).toFixed(1)
            : "—";
        }).join("/"),
      );
      process.stdout.write(`${kind.padEnd(14)} ${cells.join("  ")}\n`);
    }
  }
  const groups: Record<string, Kind[]> = {
    "weekly, step, growth": ["weekly-strong", "weekly-mild", "step-up", "step-down", "growth"],
    flat: ["flat"],
    "all series": [...KINDS],
  };
  const result: Record<string, unknown> = {};
  for (const [group, kinds] of Object.entries(groups)) {
    const rows: Record<string, unknown>[] = [];
    process.stdout.write(`\n${group}\n`);
    process.stdout.write(`method          day  median |err| %  p90 |err| %  bias %   ≤p80 %  ≤p90 %   n\n`);
    for (const method of METHODS) {
      for (const d of AS_OF) {
        const xs = samples.filter((s) => s.method === method && s.asOf === d && kinds.includes(s.kind));
        if (xs.length === 0) continue;
        const abs = xs.map((s) => Math.abs(s.error) * 100);
        const row = {
          method,
          day: d,
          medianAbsErrorPct: round(quantileOf(abs, 0.5)),
          p90AbsErrorPct: round(quantileOf(abs, 0.9)),
          biasPct: round((xs.reduce((a, s) => a + s.error, 0) / xs.length) * 100),
          coverageP80Pct:
            method === "model" ? round((xs.filter((s) => s.under80).length / xs.length) * 100) : null,
          coverageP90Pct:
            method === "model" ? round((xs.filter((s) => s.under90).length / xs.length) * 100) : null,
          n: xs.length,
        };
        rows.push(row);
        process.stdout.write(
          `${method.padEnd(15)} ${String(d).padStart(3)}  ${fmt(row.medianAbsErrorPct, 15)}  ${fmt(row.p90AbsErrorPct, 11)}  ${fmt(row.biasPct, 6)}  ${fmt(row.coverageP80Pct, 7)}  ${fmt(row.coverageP90Pct, 6)}  ${String(row.n).padStart(4)}\n`,
        );
      }
    }
    result[group] = rows;
  }
  const svgFile = join(ROOT, "docs", "forecast-error-by-day.svg");
  writeFileSync(svgFile, errorChartSvg(result as Record<string, Row[]>));
  process.stdout.write(`\nwritten: ${svgFile}\n`);
  const file = join(ROOT, "docs", "forecast-backtest.json");
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), seriesPerKind: perKind, kinds: KINDS, groups: result }, null, 2)}\n`,
  );
  process.stdout.write(`\nwritten: ${file}\n`);
}

interface Row {
  method: Method;
  day: number;
  medianAbsErrorPct: number;
}

const COLORS: Record<Method, string> = {
  model: "#1f4e79",
  "trailing-mean": "#c0392b",
  "run-rate": "#d4a017",
  "seasonal-naive": "#7f8c8d",
};

/**
 * errorChartSvg draws the median month-end error by day of the month, one line per method, one panel
 * per group of series: the report's SVG style (axis ticks from the report's `ticks`, its colors).
 */
function errorChartSvg(groups: Record<string, Row[]>): string {
  const names = Object.keys(groups);
  const W = 960;
  const panelW = W / names.length;
  const H = 340;
  const m = { top: 40, right: 16, bottom: 64, left: 48 };
  const ph = H - m.top - m.bottom;
  const pw = panelW - m.left - m.right;
  const top = Math.max(1, ...names.flatMap((g) => (groups[g] ?? []).map((r) => r.medianAbsErrorPct)));
  const yTicks = ticks(top);
  const yMax = yTicks[yTicks.length - 1] ?? top;
  const f1 = (n: number) => Math.round(n * 10) / 10;
  const panels = names.map((g, k) => {
    const x0 = k * panelW + m.left;
    const x = (day: number) => x0 + ((day - 1) / 30) * pw;
    const y = (v: number) => m.top + ph - (v / yMax) * ph;
    const grid = yTicks
      .map(
        (t) =>
          `<line class="grid" x1="${x0}" x2="${f1(x0 + pw)}" y1="${f1(y(t))}" y2="${f1(y(t))}"/><text class="tick" x="${x0 - 6}" y="${f1(y(t) + 4)}" text-anchor="end">${t}%</text>`,
      )
      .join("");
    const xTicks = AS_OF.map(
      (d) => `<text class="tick" x="${f1(x(d))}" y="${m.top + ph + 18}" text-anchor="middle">${d}</text>`,
    ).join("");
    const lines = METHODS.map((method) => {
      const rows = (groups[g] ?? []).filter((r) => r.method === method);
      const d = rows.map((r, i) => `${i ? "L" : "M"}${f1(x(r.day))} ${f1(y(r.medianAbsErrorPct))}`).join("");
      const dots = rows
        .map(
          (r) =>
            `<circle cx="${f1(x(r.day))}" cy="${f1(y(r.medianAbsErrorPct))}" r="3" fill="${COLORS[method]}"><title>${method}, day ${r.day}: ${r.medianAbsErrorPct}%</title></circle>`,
        )
        .join("");
      return `<path d="${d}" fill="none" stroke="${COLORS[method]}" stroke-width="${method === "model" ? 2.5 : 1.5}"/>${dots}`;
    }).join("");
    return `<g><text class="title" x="${x0}" y="${m.top - 14}">${g}</text>${grid}${xTicks}<text class="tick" x="${f1(x0 + pw / 2)}" y="${m.top + ph + 36}" text-anchor="middle">day of the month (as of its start)</text>${lines}</g>`;
  });
  const legend = METHODS.map(
    (method, i) =>
      `<g transform="translate(${m.left + i * 170},${H - 14})"><rect width="14" height="4" y="-4" fill="${COLORS[method]}"/><text class="tick" x="20" y="0">${method === "model" ? "model (p50)" : method}</text></g>`,
  ).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="Median absolute month-end forecast error by day of the month, per method">
<style>text{font:12px system-ui,sans-serif;fill:#4a5568}.title{font-weight:600;fill:#1a202c}.grid{stroke:#e2e8f0}</style>
<rect width="${W}" height="${H}" fill="#fff"/>
${panels.join("\n")}
${legend}
</svg>
`;
}

function trimLeadingZeros(xs: number[]): number[] {
  const i = xs.findIndex((x) => x > 0);
  return i < 0 ? [] : xs.slice(i);
}

function quantileOf(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

const round = (x: number) => Math.round(x * 10) / 10;
const fmt = (x: number | null, w: number) => (x === null ? "—" : x.toFixed(1)).padStart(w);

if (require.main === module) main();
