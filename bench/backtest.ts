/**
 * `npm run backtest`: the month-end forecast and the runway replayed as `costgate check --as-of D` would
 * (bench/evaluate.ts) over the generated corpus (bench/corpus.ts), on the `tune` split and on the `heldout`
 * split, each labelled. Every figure docs/FORECAST.md reports is a held-out one; tune on `tune` only.
 *
 * Prints per split: the median |error| % of the month total's p50 over as-of days 3–25 (every other day) for
 * the model, run-rate, the trailing 7-day mean and seasonal-naive, the model's ratio to each, its bias and
 * its p80/p90 coverage — pooled, by day of the month and by family — the per-series ratios and the runway.
 * Writes docs/forecast-backtest.json (held-out figures) and docs/forecast-error-by-day.svg (held-out).
 *
 *   npm run backtest [-- --series 400] [-- --by-family] [-- --heldout-only] [-- --write-baseline]
 *
 * `--by-family` adds the model's ratio to run-rate per family and day; `--write-baseline` rewrites
 * bench/forecast-baseline.json (the regression test's baseline, bench/heldout.ts) from the model as it is.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ticks } from "../cli/report/svg";
import { corpus, DEFAULT_COUNT, FAMILIES } from "./corpus";
import {
  AS_OF_DAYS,
  METHODS,
  type Method,
  type MonthSample,
  type MonthSummary,
  perSeriesRatios,
  quantileOf,
  replay,
  seriesMissPct,
  summarizeMonth,
  summarizeRunway,
} from "./evaluate";
import { type ForeignFigures, foreignHeldoutFigures, heldoutFigures } from "./heldout";

const ROOT = resolve(__dirname, "..", "..");
const AS_OF = AS_OF_DAYS;

const out = (line = "") => process.stdout.write(`${line}\n`);
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "—");
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "—");
const round = (x: number, k = 100) => Math.round(x * k) / k;

function summaryRow(label: string, s: MonthSummary): string {
  return `${label.padEnd(16)}${METHODS.map((m) => f2(s.medianAbsErrorPct[m]).padStart(7)).join("")}   ${f2(s.ratio["run-rate"]).padStart(5)} ${f2(s.ratio["trailing-mean"]).padStart(5)} ${f2(s.ratio["seasonal-naive"]).padStart(5)}  ${f2(s.biasPct).padStart(6)}  ${f1(s.coverageP80Pct).padStart(5)} ${f1(s.coverageP90Pct).padStart(5)} ${String(s.n).padStart(6)}`;
}
const HEADER = `${"".padEnd(16)}  model    r-r  trail  naive   ×r-r ×trl ×naive   bias%   ≤p80  ≤p90      n`;

/** report prints one split and returns its figures as JSON. */
function report(
  split: "tune" | "heldout",
  count: number,
  byFamily: boolean,
): { json: Record<string, unknown>; month: MonthSample[] } {
  const label =
    split === "tune"
      ? "TUNE split (seeds 1…; tune on these)"
      : "HELD-OUT split (seeds 1,000,001…; report these, never tune on them)";
  const t0 = Date.now();
  const { month, runway } = replay(corpus(split, count));
  out(
    `\n=== ${label}: ${count} series, ${month.length} as-of days, ${((Date.now() - t0) / 1000).toFixed(1)} s ===`,
  );
  out("median |error| % of the month total's p50, as-of days 3–25; the model's ratio to each baseline");
  out(HEADER);
  const pooled = summarizeMonth(month);
  out(summaryRow("all", pooled));
  out("\nby family");
  const families: Record<string, MonthSummary> = {};
  for (const f of FAMILIES) {
    families[f] = summarizeMonth(month.filter((x) => x.family === f));
    out(summaryRow(f, families[f]!));
  }
  out("\nby day of the month (as of its start)");
  const byDay: Record<string, MonthSummary> = {};
  for (const d of AS_OF) {
    byDay[d] = summarizeMonth(month.filter((x) => x.day === d));
    out(summaryRow(`day ${d}`, byDay[d]!));
  }
  if (byFamily) {
    out(`\nthe model's ratio to run-rate by family and day (${AS_OF.join(", ")})`);
    for (const f of FAMILIES) {
      const cells = AS_OF.map((d) =>
        f2(
          ratioOf(
            month.filter((x) => x.family === f && x.day === d),
            "run-rate",
          ),
        ),
      );
      out(`${f.padEnd(16)}${cells.map((c) => c.padStart(6)).join("")}`);
    }
  }
  const perSeries: Record<string, unknown> = {};
  out("\nper series: the model's median |error| ÷ the baseline's on the series' own as-of days");
  for (const b of ["run-rate", "trailing-mean"] as const) {
    const rs = perSeriesRatios(month, b);
    const within = (rs.filter((x) => x <= (b === "run-rate" ? 0.8 : 0.85)).length / rs.length) * 100;
    const worse = (rs.filter((x) => x > 1).length / rs.length) * 100;
    perSeries[b] = {
      median: round(quantileOf(rs, 0.5)),
      p75: round(quantileOf(rs, 0.75)),
      withinTargetPct: round(within, 10),
      worsePct: round(worse, 10),
    };
    out(
      `vs ${b.padEnd(14)} median ${f2(quantileOf(rs, 0.5))}  75th pct ${f2(quantileOf(rs, 0.75))}  within ${b === "run-rate" ? "0.8" : "0.85"}× ${f1(within)} %  worse than it ${f1(worse)} %`,
    );
  }
  // the checker's per-series bounds on the realistic families (neither flat nor short): the figure to drive down
  const missOf = (fs: readonly string[]) => seriesMissPct(month.filter((x) => fs.includes(x.family)));
  const realistic = FAMILIES.filter((f) => f !== "flat" && f !== "short-history");
  const missPct: Record<string, number> = {
    all: missOf(FAMILIES),
    "excluding flat and short-history": missOf(realistic),
  };
  for (const f of FAMILIES) missPct[f] = missOf([f]);
  perSeries.missPct = roundDeep(missPct);
  out("\nseries missing 0.8× run-rate or 0.85× the trailing mean (the checker's per-series bounds), %");
  out(
    Object.entries(missPct)
      .map(([k, v]) => `${k} ${f1(v)}`)
      .join("  "),
  );
  const rw = summarizeRunway(runway);
  out("\nrunway (a balance the truth exhausts 7–40 days after the as-of day): median |error| % of p50");
  out(
    `model ${f2(rw.medianAbsErrorPct.model)}  run-rate ${f2(rw.medianAbsErrorPct["run-rate"])}  trailing ${f2(rw.medianAbsErrorPct["trailing-mean"])}  ×r-r ${f2(rw.ratio["run-rate"])}  ×trail ${f2(rw.ratio["trailing-mean"])}  bias ${f2(rw.biasPct)} %  outlasted p80 ${f1(rw.outlastedP80Pct)} %  p90 ${f1(rw.outlastedP90Pct)} %  n ${rw.n}`,
  );
  const rwFamilies: Record<string, unknown> = {};
  for (const f of FAMILIES) {
    const s = summarizeRunway(runway.filter((x) => x.family === f));
    rwFamilies[f] = roundDeep(s);
  }
  const json = {
    split,
    series: count,
    pooled: roundDeep(pooled),
    families: roundDeep(families),
    byDay: roundDeep(byDay),
    perSeries,
    runway: { pooled: roundDeep(rw), families: rwFamilies },
  };
  return { json, month };
}

function ratioOf(xs: MonthSample[], b: Exclude<Method, "model">): number {
  return summarizeMonth(xs).ratio[b];
}

/** jsonText is `x` as JSON the way biome formats it: arrays of numbers on one line. */
function jsonText(x: unknown): string {
  return `${JSON.stringify(x, null, 2).replace(/\[\s*(-?[\d.]+(?:,\s*-?[\d.]+)*)\s*\]/g, (_, xs: string) => `[${xs.split(/,\s*/).join(", ")}]`)}\n`;
}

function roundDeep<T>(x: T): T {
  return JSON.parse(JSON.stringify(x, (_, v) => (typeof v === "number" ? round(v) : v))) as T;
}

function main(): void {
  const args = process.argv.slice(2);
  const count = Number(args[args.indexOf("--series") + 1] || DEFAULT_COUNT) || DEFAULT_COUNT;
  if (args.includes("--write-baseline")) {
    const file = join(ROOT, "bench", "forecast-baseline.json");
    const figures = { ...heldoutFigures(), foreign: foreignHeldoutFigures() };
    writeFileSync(
      file,
      `${JSON.stringify({ recorded: new Date().toISOString().slice(0, 10), ...figures }, null, 2)}\n`,
    );
    out(JSON.stringify(figures, null, 2));
    out(`\nwritten: ${file}`);
    return;
  }
  const byFamily = args.includes("--by-family") || args.includes("--by-kind");
  if (!args.includes("--heldout-only")) report("tune", count, byFamily);
  const { json: heldout, month } = report("heldout", count, byFamily);
  const foreign = foreignHeldoutFigures();
  out("\nforeign held-out sets (never tuned on), every day from the 2nd to the month's end");
  out("set          series  missing  ×run-rate  ×trailing   bias %   ≤p80 %   ≤p90 %");
  for (const [name, f] of Object.entries(foreign) as [string, ForeignFigures][])
    out(
      `${name.padEnd(12)} ${String(f.series).padStart(6)} ${String(f.seriesMissing).padStart(8)} ${f.ratioRunRate.toFixed(2).padStart(10)} ${f.ratioTrailingMean.toFixed(2).padStart(10)} ${f.biasPct.toFixed(2).padStart(8)} ${f.coverageP80Pct.toFixed(1).padStart(8)} ${f.coverageP90Pct.toFixed(1).padStart(8)}`,
    );
  // the chart: median |error| by day, per method, for all held-out series and the two families the
  // simple baselines find hardest to beat
  const panel = (family?: string): Row[] =>
    AS_OF.flatMap((d) => {
      const s = summarizeMonth(month.filter((x) => x.day === d && (!family || x.family === family)));
      return METHODS.map((method) => ({
        method,
        day: d,
        medianAbsErrorPct: round(s.medianAbsErrorPct[method]),
      }));
    });
  const svgFile = join(ROOT, "docs", "forecast-error-by-day.svg");
  writeFileSync(
    svgFile,
    errorChartSvg({
      "all held-out series": panel(),
      "step (held-out)": panel("step"),
      "flat (held-out)": panel("flat"),
    }),
  );
  out(`\nwritten: ${svgFile}`);
  const file = join(ROOT, "docs", "forecast-backtest.json");
  writeFileSync(
    file,
    jsonText({
      date: new Date().toISOString().slice(0, 10),
      asOfDays: AS_OF,
      families: FAMILIES,
      heldout,
      foreign,
    }),
  );
  out(`written: ${file}`);
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

if (require.main === module) main();
