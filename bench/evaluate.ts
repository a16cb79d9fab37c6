/**
 * The backtest's replay (issue 20): what `costgate check --as-of D --json` gives for a corpus series
 * (bench/corpus.ts), against the truth and three simple baselines on the same dates.
 *
 * At 00:00 UTC of each as-of day D the engine's public `evaluate` runs on exactly the charges a replay reads
 * (from `checkPeriodStart(D)` — the model's `MODEL_HISTORY_DAYS` and the month so far — to D − 1, nothing of
 * D), so what is measured is what check judges: `figures.forecast.monthEnd` (month to date + the model's
 * remaining p50/p80/p90) and `figures.forecast.runwayDays`. Under 3 days of charges the model gives none and
 * check judges its trailing-mean forecast; so does the backtest.
 *
 * Baselines, from the same days: run-rate (month to date ÷ days elapsed × days in month), the trailing
 * 7-day mean (month to date + the mean of the last 7 full days × the days left, D included) and
 * seasonal-naive (each day left as the same weekday of the last observed week). The runway of a balance
 * chosen so that the truth runs out 7–40 days after D is compared with run-rate's and the trailing mean's.
 */
import { evaluate } from "../provider/budget/engine";
import { checkPeriodStart } from "../provider/check";
import { type CorpusSeries, monthEndOf, monthTotal, rng } from "./corpus";

const DAY_MS = 86_400_000;
/** The as-of days of each evaluated month: every other day from the 3rd to the 25th. */
export const AS_OF_DAYS = [3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25] as const;
/**
 * Every as-of day from the 2nd to the month's last (the 1st has no month to date for run-rate): the external
 * check reads "every other day of March–November", whose parity changes from month to month, so a figure on
 * days 3–25 alone may flatter the model (late days, where every method knows most of the month, count too).
 */
export const EVERY_DAY = Array.from({ length: 30 }, (_, i) => i + 2);
/** The methods compared; `model` is what check judges. */
export const METHODS = ["model", "run-rate", "trailing-mean", "seasonal-naive"] as const;
export type Method = (typeof METHODS)[number];

/** One month-end forecast of one method at one as-of day. */
export interface MonthSample {
  seed: number;
  family: string;
  /** Day of the month (3–25) of the as-of day. */
  day: number;
  /** (p50 − truth) ÷ truth per method. */
  error: Record<Method, number>;
  /** The truth at or under the model's p80 / p90. */
  under80: boolean;
  under90: boolean;
}

/** One runway forecast at one as-of day: days until the balance runs out. */
export interface RunwaySample {
  seed: number;
  family: string;
  day: number;
  /** The days the balance truly lasted (fractional). */
  truth: number;
  /** (forecast − truth) ÷ truth: the model's p50, run-rate's and the trailing mean's. */
  error: { model: number; "run-rate": number; "trailing-mean": number };
  /** The truth at or beyond the model's p80 / p90 runway (the balance outlasted it). */
  outlasted80: boolean;
  outlasted90: boolean;
}

const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const dayOfIso = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/**
 * replaySeries replays check on every as-of day of `days` (days of the month) in each evaluated month of
 * `s`; a month whose true total is 0 is skipped.
 */
export function replaySeries(
  s: CorpusSeries,
  days: readonly number[] = AS_OF_DAYS,
): { month: MonthSample[]; runway: RunwaySample[] } {
  const month: MonthSample[] = [];
  const runway: RunwaySample[] = [];
  const lastDay = s.firstDay + s.amounts.length - 1;
  const at = (day: number) => (day < s.firstDay ? 0 : (s.amounts[day - s.firstDay] ?? 0));
  for (const first of s.months) {
    const truth = monthTotal(s, first);
    if (truth <= 0) continue;
    const end = monthEndOf(first);
    const len = end - first + 1;
    for (const d of days) {
      const today = first + d - 1;
      if (today - s.firstDay < 1 || today > end) continue;
      const now = new Date(today * DAY_MS);
      const from = Math.max(s.firstDay, dayOfIso(checkPeriodStart(now)));
      const consumption = [];
      for (let day = from; day < today; day++)
        consumption.push({ day: isoOf(day), totalAmount: at(day), totalBonuses: 0 });
      // the runway's balance: the truth runs out 7–40 days after D (inside the series)
      const r = rng(s.seed * 31 + today);
      const room = lastDay - today + 1;
      const horizon = Math.min(room, 7 + Math.floor(r() * 34));
      let balance = 0;
      for (let i = 0; i < horizon - 1; i++) balance += at(today + i);
      balance += at(today + horizon - 1) * (0.1 + 0.8 * r());
      const e = evaluate({ projectId: s.seed, balance, bonuses: 0, consumption, now }, {});
      const mtd = e.figures.monthToDate;
      const q = e.figures.forecast.monthEnd ?? {
        p50: e.figures.forecastMonthEnd,
        p80: e.figures.forecastMonthEnd,
        p90: e.figures.forecastMonthEnd,
      };
      const history = consumption.map((c) => c.totalAmount);
      const last7 = history.slice(-7);
      const mean7 = last7.reduce((a, b) => a + b, 0) / Math.max(1, last7.length);
      const left = end - today + 1;
      const elapsed = d - 1;
      const runRateDaily = mtd / elapsed;
      let naive = mtd;
      for (let i = 0; i < left; i++) naive += last7.length === 7 ? last7[i % 7]! : mean7;
      const rel = (f: number) => (f - truth) / truth;
      month.push({
        seed: s.seed,
        family: s.family,
        day: d,
        error: {
          model: rel(q.p50),
          "run-rate": rel(runRateDaily * len),
          "trailing-mean": rel(mtd + mean7 * left),
          "seasonal-naive": rel(naive),
        },
        under80: truth <= q.p80 + 0.005,
        under90: truth <= q.p90 + 0.005,
      });
      const rw = e.figures.forecast.runwayDays;
      if (horizon >= 7 && balance > 0 && rw) {
        const t = runsOutAfter(balance, (i) => at(today + i), room);
        if (t !== undefined) {
          const relR = (x: number) => (Number.isFinite(x) ? (x - t) / t : 10);
          runway.push({
            seed: s.seed,
            family: s.family,
            day: d,
            truth: t,
            error: {
              model: relR(rw.p50),
              "run-rate": relR(runRateDaily > 0 ? balance / runRateDaily : Number.POSITIVE_INFINITY),
              "trailing-mean": relR(mean7 > 0 ? balance / mean7 : Number.POSITIVE_INFINITY),
            },
            outlasted80: t >= rw.p80,
            outlasted90: t >= rw.p90,
          });
        }
      }
    }
  }
  return { month, runway };
}

/** runsOutAfter is the (fractional) number of days the balance lasts from day 0; undefined beyond `room`. */
function runsOutAfter(balance: number, amountOn: (i: number) => number, room: number): number | undefined {
  let left = balance;
  for (let i = 0; i < room; i++) {
    const a = amountOn(i);
    if (a >= left) return i + (a > 0 ? left / a : 0);
    left -= a;
  }
  return undefined;
}

/** replay replays every series of a corpus. */
export function replay(
  series: readonly CorpusSeries[],
  days: readonly number[] = AS_OF_DAYS,
): { month: MonthSample[]; runway: RunwaySample[] } {
  const month: MonthSample[] = [];
  const runway: RunwaySample[] = [];
  for (const s of series) {
    const r = replaySeries(s, days);
    month.push(...r.month);
    runway.push(...r.runway);
  }
  return { month, runway };
}

/** quantileOf is the linearly interpolated `q` quantile of `xs` (NaN when empty). */
export function quantileOf(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** What a set of month samples says: medians in %, ratios of the model's median to each baseline's. */
export interface MonthSummary {
  n: number;
  /** Median |error| % of each method. */
  medianAbsErrorPct: Record<Method, number>;
  /** 90th percentile |error| % of each method. */
  p90AbsErrorPct: Record<Method, number>;
  /** The model's median |error| ÷ each baseline's. */
  ratio: { "run-rate": number; "trailing-mean": number; "seasonal-naive": number };
  /** The model's median signed error, %. */
  biasPct: number;
  /** How often the truth fell at or under the model's p80 / p90, %. */
  coverageP80Pct: number;
  coverageP90Pct: number;
}

/** summarizeMonth summarizes month samples (all days and families given). */
export function summarizeMonth(xs: readonly MonthSample[]): MonthSummary {
  const med = {} as Record<Method, number>;
  const p90 = {} as Record<Method, number>;
  for (const m of METHODS) {
    const abs = xs.map((x) => Math.abs(x.error[m]) * 100);
    med[m] = quantileOf(abs, 0.5);
    p90[m] = quantileOf(abs, 0.9);
  }
  return {
    n: xs.length,
    medianAbsErrorPct: med,
    p90AbsErrorPct: p90,
    ratio: {
      "run-rate": med.model / med["run-rate"],
      "trailing-mean": med.model / med["trailing-mean"],
      "seasonal-naive": med.model / med["seasonal-naive"],
    },
    biasPct: quantileOf(
      xs.map((x) => x.error.model * 100),
      0.5,
    ),
    coverageP80Pct: (xs.filter((x) => x.under80).length / Math.max(1, xs.length)) * 100,
    coverageP90Pct: (xs.filter((x) => x.under90).length / Math.max(1, xs.length)) * 100,
  };
}

/**
 * perSeriesRatios gives, for each series, the model's median |error| ÷ a baseline's over its samples: the
 * checker's per-series view (issue 20: per series ≤ 0.8× run-rate).
 */
export function perSeriesRatios(xs: readonly MonthSample[], baseline: Exclude<Method, "model">): number[] {
  const bySeed = new Map<number, MonthSample[]>();
  for (const x of xs) bySeed.set(x.seed, [...(bySeed.get(x.seed) ?? []), x]);
  const out: number[] = [];
  for (const group of bySeed.values()) {
    const m = quantileOf(
      group.map((x) => Math.abs(x.error.model)),
      0.5,
    );
    const b = quantileOf(
      group.map((x) => Math.abs(x.error[baseline])),
      0.5,
    );
    if (b > 0) out.push(m / b);
  }
  return out;
}

/** The external check's per-series bounds (issue 20): ≤ 0.8× run-rate's error and ≤ 0.85× the trailing mean's. */
export const PER_SERIES_BOUND = { "run-rate": 0.8, "trailing-mean": 0.85 } as const;

/**
 * seriesMissPct is the share (%) of the series in `xs` that miss a per-series bound: the model's median
 * |error| over the series' own as-of days above 0.8× run-rate's or above 0.85× the trailing mean's. NaN
 * when `xs` has no series.
 */
export function seriesMissPct(xs: readonly MonthSample[]): number {
  const bySeed = new Map<number, MonthSample[]>();
  for (const x of xs) bySeed.set(x.seed, [...(bySeed.get(x.seed) ?? []), x]);
  if (bySeed.size === 0) return Number.NaN;
  const med = (g: MonthSample[], m: Method) =>
    quantileOf(
      g.map((x) => Math.abs(x.error[m])),
      0.5,
    );
  let missed = 0;
  for (const g of bySeed.values()) {
    const model = med(g, "model");
    if (
      model > PER_SERIES_BOUND["run-rate"] * med(g, "run-rate") ||
      model > PER_SERIES_BOUND["trailing-mean"] * med(g, "trailing-mean")
    )
      missed++;
  }
  return (missed / bySeed.size) * 100;
}

/** The per-series coverage bounds of issue 20's check: p80 within 72–92 %, p90 at least 82 %. */
export const PER_SERIES_COVERAGE = { p80Low: 72, p80High: 92, p90Low: 82 } as const;

/**
 * seriesCoverageMiss gives the share (%) of series (by seed) whose p80 coverage is under 72 % (`p80Low`) or
 * over 92 % (`p80High`), and whose p90 coverage is under 82 % (`p90Low`): the check reads coverage per series.
 */
export function seriesCoverageMiss(xs: readonly MonthSample[]): {
  p80Low: number;
  p80High: number;
  p90Low: number;
} {
  const bySeed = new Map<number, MonthSample[]>();
  for (const x of xs) {
    const g = bySeed.get(x.seed);
    if (g) g.push(x);
    else bySeed.set(x.seed, [x]);
  }
  const share = (test: (g: MonthSample[]) => boolean) =>
    bySeed.size === 0 ? Number.NaN : ([...bySeed.values()].filter(test).length / bySeed.size) * 100;
  const cov = (g: MonthSample[], under: (x: MonthSample) => boolean) =>
    (g.filter(under).length / g.length) * 100;
  return {
    p80Low: share((g) => cov(g, (x) => x.under80) < PER_SERIES_COVERAGE.p80Low),
    p80High: share((g) => cov(g, (x) => x.under80) > PER_SERIES_COVERAGE.p80High),
    p90Low: share((g) => cov(g, (x) => x.under90) < PER_SERIES_COVERAGE.p90Low),
  };
}

/** What a set of runway samples says. */
export interface RunwaySummary {
  n: number;
  medianAbsErrorPct: { model: number; "run-rate": number; "trailing-mean": number };
  ratio: { "run-rate": number; "trailing-mean": number };
  /** The model's median signed error of the p50 runway, % (negative: it says the money runs out sooner). */
  biasPct: number;
  /** How often the balance outlasted the model's p80 / p90 runway, %. */
  outlastedP80Pct: number;
  outlastedP90Pct: number;
}

/** The three forecasts every summary compares. */
type Compared = "model" | "run-rate" | "trailing-mean";

/** medianAbsErrorPct is each forecast's median |error|, %, over samples carrying the three errors. */
export function medianAbsErrorPct(
  xs: readonly { error: Record<Compared, number> }[],
): Record<Compared, number> {
  const med = (k: Compared) =>
    quantileOf(
      xs.map((x) => Math.abs(x.error[k]) * 100),
      0.5,
    );
  return { model: med("model"), "run-rate": med("run-rate"), "trailing-mean": med("trailing-mean") };
}

/** summarizeRunway summarizes runway samples. */
export function summarizeRunway(xs: readonly RunwaySample[]): RunwaySummary {
  const m = medianAbsErrorPct(xs);
  return {
    n: xs.length,
    medianAbsErrorPct: m,
    ratio: { "run-rate": m.model / m["run-rate"], "trailing-mean": m.model / m["trailing-mean"] },
    biasPct: quantileOf(
      xs.map((x) => x.error.model * 100),
      0.5,
    ),
    outlastedP80Pct: (xs.filter((x) => x.outlasted80).length / Math.max(1, xs.length)) * 100,
    outlastedP90Pct: (xs.filter((x) => x.outlasted90).length / Math.max(1, xs.length)) * 100,
  };
}
