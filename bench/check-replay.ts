/**
 * `npm run backtest:cli` (issue 20): the forecast on series its authors never wrote, through the command users
 * run. Each series of bench/foreign.ts is seeded into an in-process emulator as a billing project; the **built**
 * CLI runs `costgate check --as-of D --monthly-budget X --json` for every other day D (3–25) of each month, and
 * `evaluation.figures.forecast.monthEnd.{p50,p80,p90}` is judged as the external check judges it: the median
 * |error| of p50's month total against run-rate (month to date ÷ days elapsed × days in month) and the trailing
 * 7-day mean (month to date + the mean of the last 7 days × days left) on the same dates, per series and pooled,
 * and p80/p90 coverage. It also checks that the CLI's p50 equals bench/evaluate.ts's in-process replay, and
 * times a check of 100 projects, model against trailing mean.
 *
 *   npm run backtest:cli                      all series, days 3, 5, …, 25 (days after today are skipped)
 *   npm run backtest:cli -- --series 3        the first 3 series
 *   npm run backtest:cli -- --quick           days 5, 11, 17, 23 only
 *   npm run backtest:cli -- --days all        every day from the 2nd to the month's end
 *   npm run backtest:cli -- --split heldout   foreign-heldout (or tune): bench/foreign.ts's splits
 *   npm run backtest:cli -- --set foreign3    with --split: another foreign set's (foreign2 … foreign5;
 *                                             foreign4's and foreign5's histories start in 2025: only 2026-03
 *                                             on is checked)
 *   npm run backtest:cli -- --no-timing       skip the 100-project timing
 *   npm run backtest:cli -- --json FILE       also write the figures as JSON
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pLimit from "p-limit";
import { type Emulator, startEmulator } from "../emulator";
import type { CorpusSeries } from "./corpus";
import { AS_OF_DAYS, EVERY_DAY, medianAbsErrorPct, quantileOf, replaySeries } from "./evaluate";
import { billOn, type ForeignSeries, foreignSet, foreignSplit, monthsOf } from "./foreign";
import { foreign2Split } from "./foreign2";
import { foreign3Split } from "./foreign3";
import { foreign4Split } from "./foreign4";
import { foreign5Split } from "./foreign5";
import { interleave, median } from "./measure";

const DAY_MS = 86_400_000;
/** The CLI as users run it (bin/costgate over dist/), from bench/ (vitest) or dist/bench/ (npm run). */
const BIN = resolve(
  __dirname,
  existsSync(resolve(__dirname, "..", "package.json")) ? ".." : "../..",
  "bin",
  "costgate",
);
/** Two cores are shared: at most this many CLI processes at once. */
export const REPLAY_CONCURRENCY = 2;
/** Project ids of the foreign series in the emulator: FIRST_ID + index. */
const FIRST_ID = 880_001;
/** A budget no series reaches: the verdict is not what is measured. */
const BUDGET = 10_000_000;

const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const monthEnd = (first: number) => {
  const d = new Date(first * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0) / DAY_MS;
};

/** One as-of day of one series: the CLI's quantiles, the baselines and the truth. */
export interface CliSample {
  series: string;
  asOf: string;
  /** Day of the month of the as-of day. */
  day: number;
  truth: number;
  p50: number;
  p80: number;
  p90: number;
  /** (forecast − truth) ÷ truth. */
  error: { model: number; "run-rate": number; "trailing-mean": number };
  /** What the model said it did (forecast.method). */
  method: string;
}

/** What a set of samples says, as the external check reads it. */
export interface CliSummary {
  n: number;
  /** Median |error| %, per method. */
  medianAbsErrorPct: { model: number; "run-rate": number; "trailing-mean": number };
  /** The model's median |error| ÷ each baseline's. */
  ratioRunRate: number;
  ratioTrailing: number;
  coverageP80Pct: number;
  coverageP90Pct: number;
  /** Median signed error of p50, %. */
  biasPct: number;
}

/** summarize reads samples as the external check does. */
export function summarize(xs: readonly CliSample[]): CliSummary {
  const m = medianAbsErrorPct(xs);
  return {
    n: xs.length,
    medianAbsErrorPct: m,
    ratioRunRate: m.model / m["run-rate"],
    ratioTrailing: m.model / m["trailing-mean"],
    coverageP80Pct: (xs.filter((x) => x.truth <= x.p80 + 0.005).length / Math.max(1, xs.length)) * 100,
    coverageP90Pct: (xs.filter((x) => x.truth <= x.p90 + 0.005).length / Math.max(1, xs.length)) * 100,
    biasPct: quantileOf(
      xs.map((x) => x.error.model * 100),
      0.5,
    ),
  };
}

/** seedForeign puts each series into the emulator as project FIRST_ID + index (product 1); returns the ids. */
export function seedForeign(emu: Emulator, series: readonly ForeignSeries[], firstId = FIRST_ID): number[] {
  return series.map((s, i) => {
    const id = firstId + i;
    emu.setProject({
      id,
      products: {
        1: {
          balance: 1_000_000,
          bonuses: 0,
          daily: s.daily.map((a, k) => ({ day: isoOf(s.firstDay + k), totalAmount: a, totalBonuses: 0 })),
        },
      },
    });
    return id;
  });
}

/** runBin runs the built CLI with only the given env (plus PATH); resolves its exit code and output. */
export function runBin(
  args: string[],
  env: Record<string, string>,
  bin = BIN,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        env: { PATH: process.env["PATH"] ?? "", HOME: tmpdir(), ...env },
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) =>
        ok({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The as-of days of one series: `days` of each month, from its second day, up to today, months with a bill. */
export function asOfDaysOf(
  s: ForeignSeries,
  days: readonly number[],
  today: string,
): { asOf: number; first: number }[] {
  const out: { asOf: number; first: number }[] = [];
  for (const first of monthsOf(s)) {
    let truth = 0;
    for (let d = first; d <= monthEnd(first); d++) truth += billOn(s, d);
    if (truth <= 0) continue;
    for (const d of days) {
      const asOf = first + d - 1;
      if (asOf - s.firstDay < 1 || asOf > monthEnd(first) || isoOf(asOf) > today) continue;
      out.push({ asOf, first });
    }
  }
  return out;
}

/**
 * replayCli runs `check --as-of D --json` through the built CLI for every as-of day of each series (at most
 * {@link REPLAY_CONCURRENCY} at once) and returns the samples: `days` of the month (default 3, 5, …, 25), in
 * `months` (`YYYY-MM`, default all), up to `today`. The emulator must hold the series (seedForeign).
 */
export async function replayCli(
  emu: Emulator,
  series: readonly ForeignSeries[],
  ids: readonly number[],
  opts: { days?: readonly number[]; months?: readonly string[]; today?: string } = {},
): Promise<CliSample[]> {
  const days = opts.days ?? AS_OF_DAYS;
  const today = opts.today ?? new Date().toISOString().slice(0, 10);
  const env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  const limit = pLimit(REPLAY_CONCURRENCY);
  const jobs: Promise<CliSample>[] = [];
  series.forEach((s, i) => {
    for (const { asOf, first } of asOfDaysOf(s, days, today)) {
      if (opts.months && !opts.months.includes(isoOf(first).slice(0, 7))) continue;
      jobs.push(
        limit(async () => {
          const args = ["check", "--project-id", String(ids[i]), "--monthly-budget", String(BUDGET)];
          const r = await runBin([...args, "--as-of", isoOf(asOf), "--json"], env);
          if (r.code !== 0 && r.code !== 1)
            throw new Error(`${s.name} as of ${isoOf(asOf)}: exit ${r.code}: ${r.stderr.slice(0, 400)}`);
          const project = parsed(r, `${s.name} as of ${isoOf(asOf)}`).projects[0];
          const f = project.evaluation.figures;
          const q = f.forecast?.monthEnd ?? {
            p50: f.forecastMonthEnd,
            p80: f.forecastMonthEnd,
            p90: f.forecastMonthEnd,
          };
          return sampleOf(s, first, asOf, q, String(f.forecast?.method ?? "trailing-mean"));
        }),
      );
    }
  });
  return Promise.all(jobs);
}

/** parsed is the JSON a check printed; an exit without it (a crash, a missing build) is an error with stderr. */
function parsed(r: { code: number; stdout: string; stderr: string }, what: string) {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`${what}: exit ${r.code} without JSON: ${r.stderr.slice(0, 400)}`);
  }
}

/** sampleOf computes the truth and the checker's baselines for one as-of day. */
function sampleOf(
  s: ForeignSeries,
  first: number,
  asOf: number,
  q: { p50: number; p80: number; p90: number },
  method: string,
): CliSample {
  const end = monthEnd(first);
  let truth = 0;
  for (let d = first; d <= end; d++) truth += billOn(s, d);
  let mtd = 0;
  for (let d = first; d < asOf; d++) mtd += billOn(s, d);
  const last7: number[] = [];
  for (let d = Math.max(s.firstDay, asOf - 7); d < asOf; d++) last7.push(billOn(s, d));
  const mean7 = last7.reduce((a, b) => a + b, 0) / Math.max(1, last7.length);
  const day = asOf - first + 1;
  const elapsed = day - 1;
  const len = end - first + 1;
  const left = end - asOf + 1;
  const rel = (x: number) => (x - truth) / truth;
  return {
    series: s.name,
    asOf: isoOf(asOf),
    day,
    truth,
    p50: q.p50,
    p80: q.p80,
    p90: q.p90,
    error: {
      model: rel(q.p50),
      "run-rate": rel((mtd / elapsed) * len),
      "trailing-mean": rel(mtd + mean7 * left),
    },
    method,
  };
}

/**
 * crossCheck replays the same days in process with bench/evaluate.ts (the engine's evaluate on the charges
 * check reads) and lists the days whose p50 differs from the CLI's by more than a cent.
 */
export function crossCheck(series: readonly ForeignSeries[], samples: readonly CliSample[]): string[] {
  const diffs: string[] = [];
  for (const s of series) {
    const mine = samples.filter((x) => x.series === s.name);
    for (const first of monthsOf(s)) {
      const month = mine.filter((x) => x.asOf.slice(0, 7) === isoOf(first).slice(0, 7));
      if (month.length === 0) continue;
      const corpusLike: CorpusSeries = {
        seed: s.seed,
        family: s.name as CorpusSeries["family"],
        firstDay: s.firstDay,
        amounts: s.daily,
        months: [first],
        params: {},
      };
      const inProcess = replaySeries(
        corpusLike,
        month.map((x) => x.day),
      ).month;
      for (const x of month) {
        const twin = inProcess.find((y) => y.day === x.day);
        if (!twin) {
          diffs.push(`${s.name} ${x.asOf}: no in-process replay of this day`);
          continue;
        }
        const p50 = x.truth * (1 + twin.error.model);
        if (Math.abs(p50 - x.p50) > 0.01)
          diffs.push(`${s.name} ${x.asOf}: CLI p50 ${x.p50}, in process ${p50.toFixed(2)}`);
      }
    }
  }
  return diffs;
}

/** timeCheck100 times `check` of 100 seeded projects, the model against `forecastMethod: trailing-mean`. */
export async function timeCheck100(
  emu: Emulator,
  runs: number,
  bin = BIN,
): Promise<{ model: number[]; "trailing-mean": number[] }> {
  const series = foreignSet();
  const all = Array.from({ length: 100 }, (_, i) => series[i % series.length]!);
  const ids = seedForeign(emu, all, 890_001);
  const dir = mkdtempSync(join(tmpdir(), "costgate-fx-"));
  const config = join(dir, "trailing.json");
  writeFileSync(config, JSON.stringify({ forecastMethod: "trailing-mean" }));
  const env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  const base = ["check", "--project-id", ids.join(","), "--monthly-budget", String(BUDGET), "--json"];
  const once = (extra: string[]) => async () => {
    const r = await runBin([...base, ...extra], env, bin);
    if (r.code !== 0 && r.code !== 1)
      throw new Error(`check of 100 projects: exit ${r.code}: ${r.stderr.slice(0, 400)}`);
    const out = parsed(r, "check of 100 projects");
    if (out.projects.length !== 100 || out.projects.some((p: { error?: unknown }) => p.error))
      throw new Error("check of 100 projects: a project has no evaluation");
  };
  try {
    const t = await interleave({ model: once([]), "trailing-mean": once(["--config", config]) }, runs, 1);
    return { model: t["model"]!, "trailing-mean": t["trailing-mean"]! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    for (const id of ids) emu.removeProject(id);
  }
}

const pct = (x: number) => `${x.toFixed(1)} %`;
const x2 = (x: number) => `${x.toFixed(2)}×`;

/** report prints the per-series table, the pooled line and the worst misses of each series. */
export function report(series: readonly ForeignSeries[], samples: readonly CliSample[]): string {
  const lines = [
    "| series | as-of days | model | run-rate | trailing | × run-rate | × trailing | p80 cover | p90 cover | bias |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const s of series) {
    const xs = samples.filter((x) => x.series === s.name);
    if (xs.length === 0) continue;
    const m = summarize(xs);
    lines.push(
      `| ${s.name} | ${m.n} | ${pct(m.medianAbsErrorPct.model)} | ${pct(m.medianAbsErrorPct["run-rate"])} | ${pct(m.medianAbsErrorPct["trailing-mean"])} | ${x2(m.ratioRunRate)} | ${x2(m.ratioTrailing)} | ${pct(m.coverageP80Pct)} | ${pct(m.coverageP90Pct)} | ${m.biasPct.toFixed(1)} % |`,
    );
  }
  const all = summarize(samples);
  lines.push(
    `| **pooled** | ${all.n} | ${pct(all.medianAbsErrorPct.model)} | ${pct(all.medianAbsErrorPct["run-rate"])} | ${pct(all.medianAbsErrorPct["trailing-mean"])} | ${x2(all.ratioRunRate)} | ${x2(all.ratioTrailing)} | ${pct(all.coverageP80Pct)} | ${pct(all.coverageP90Pct)} | ${all.biasPct.toFixed(1)} % |`,
  );
  lines.push("", "Worst misses (model |error| > 2× run-rate's and > 5 %), with what happened that month:");
  for (const s of series) {
    const bad = samples
      .filter((x) => x.series === s.name)
      .filter(
        (x) => Math.abs(x.error.model) > 0.05 && Math.abs(x.error.model) > 2 * Math.abs(x.error["run-rate"]),
      )
      .sort((a, b) => Math.abs(b.error.model) - Math.abs(a.error.model))
      .slice(0, 4);
    for (const x of bad) {
      const month = x.asOf.slice(0, 7);
      const story = s.story.filter((e) => e.startsWith(month)).slice(0, 6);
      lines.push(
        `- ${s.name} ${x.asOf} (day ${x.day}): model ${(x.error.model * 100).toFixed(1)} %, run-rate ${(x.error["run-rate"] * 100).toFixed(1)} %, trailing ${(x.error["trailing-mean"] * 100).toFixed(1)} % [${x.method}]; ${story.join("; ") || "nothing listed"}`,
      );
    }
  }
  return lines.join("\n");
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const n = arg("series") === undefined ? undefined : Number(arg("series"));
  const days = process.argv.includes("--quick")
    ? [5, 11, 17, 23]
    : arg("days") === "all"
      ? EVERY_DAY
      : AS_OF_DAYS;
  const split = arg("split");
  if (split !== undefined && split !== "tune" && split !== "heldout")
    throw new Error(`--split ${split}: use --split tune or --split heldout`);
  const sets = {
    foreign: foreignSplit,
    foreign2: foreign2Split,
    foreign3: foreign3Split,
    foreign4: foreign4Split,
    foreign5: foreign5Split,
  } as const;
  const set = arg("set") ?? "foreign";
  if (!(set in sets))
    throw new Error(`--set ${set}: use --set foreign, foreign2, foreign3, foreign4 or foreign5`);
  if (set !== "foreign" && split === undefined)
    throw new Error(`--set ${set} needs --split tune or --split heldout`);
  const series = split ? sets[set as keyof typeof sets](split).slice(0, n) : foreignSet(n);
  const emu = await startEmulator({ port: 0 });
  const log = (line: string) => process.stderr.write(`backtest:cli: ${line}\n`);
  try {
    const ids = seedForeign(emu, series);
    const started = performance.now();
    const samples = await replayCli(emu, series, ids, { days });
    log(`${samples.length} checks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    process.stdout.write(`\n${report(series, samples)}\n`);
    const diffs = crossCheck(series, samples);
    process.stdout.write(
      diffs.length === 0
        ? `\nCLI p50 = in-process replay (bench/evaluate.ts) on all ${samples.length} days.\n`
        : `\nCLI p50 differs from the in-process replay on ${diffs.length} days:\n${diffs.join("\n")}\n`,
    );
    let timing: { model: number[]; "trailing-mean": number[] } | undefined;
    if (!process.argv.includes("--no-timing")) {
      timing = await timeCheck100(emu, Number(arg("runs") ?? 5));
      const m = median(timing.model);
      const t = median(timing["trailing-mean"]);
      process.stdout.write(
        `\ncheck of 100 projects: model ${m.toFixed(0)} ms, trailing mean ${t.toFixed(0)} ms, ${(m / t).toFixed(2)}× (target ≤ 1.2×)\n`,
      );
    }
    const file = arg("json");
    if (file) writeFileSync(file, `${JSON.stringify({ samples, diffs, timing }, null, 2)}\n`);
    if (diffs.length > 0) process.exitCode = 1;
  } finally {
    await emu.close();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`backtest:cli: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
}
