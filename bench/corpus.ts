/**
 * The backtest corpus (issue 20): daily cost series drawn from parameter *distributions*, each from its
 * seed, so that a figure measured on it says how the forecast does on series nobody tuned it to.
 *
 * Two splits with disjoint seeds: `tune` (seeds 1, 2, …), for trying changes to the model, and `heldout`
 * (seeds 1,000,001, …, 400 series), fixed, from which every reported figure comes and which is never used
 * to choose a parameter. A series combines several effects; its `family` names the dominant one:
 *
 * - level: log-uniform 20–20,000 a day; multiplicative noise, a log-normal of σ 1–8 %;
 * - `weekly`: weekday shapes from a mild dip to idle weekends (0.05–0.8× on Saturday and Sunday, sometimes a
 *   busier Monday or a quieter Friday); other families are flat or mildly weekly (0.8–1×);
 * - `step`: a step change every 15–90 days on average, 5–60 % up or down (most of 8–30 %), at least one in
 *   the last four months (often inside an evaluated month); half the series of other families (flat and
 *   short-history aside) also change now and then: every 90–365 days, 5–30 %;
 * - `trend`: growth or decline of 3–25 % a month;
 * - `monthly-charge`: 1–2 items billed monthly on the 1st or another day, 3–50 % of the month's spend
 *   (log-uniform);
 * - `delays`: a day's charges arrive with the next (a zero, then a double), 5–20 % of days or always on one
 *   weekday; missing days (a zero, nothing caught up) 1–4 % of days;
 * - `spiky`: 2–8 % of days at 2–8× the level;
 * - `short-history`: 3–45 days of history before the first as-of day (day 3 of its one evaluated month);
 * - `mixed`: two to four of the effects above at once;
 * - `flat`: the level and its noise only.
 *
 * History: from 3 days (short-history) to 2 years before the first evaluated month. Days are UTC day
 * numbers (days since 1970-01-01); the series runs through the end of its last evaluated month.
 *
 * @example
 * for (const s of corpus("tune", 90)) {
 *   const totalOfFirstMonth = monthTotal(s, s.months[0]!);
 * }
 */

/** The families of series, one per dominant effect. */
export const FAMILIES = [
  "flat",
  "weekly",
  "step",
  "trend",
  "monthly-charge",
  "delays",
  "spiky",
  "short-history",
  "mixed",
] as const;
export type Family = (typeof FAMILIES)[number];

/** A generated daily cost series. */
export interface CorpusSeries {
  /** The seed it was drawn from (tune: 1…, heldout: 1,000,001…). */
  seed: number;
  /** Its dominant effect. */
  family: Family;
  /** Day number of `amounts[0]` (days since 1970-01-01, UTC). */
  firstDay: number;
  /** Charges per day, in cents-rounded currency units, from `firstDay` through the last evaluated month's end. */
  amounts: number[];
  /** Day numbers of the 1st of each month to evaluate (oldest first; the last ends with `amounts`). */
  months: number[];
  /** What it was drawn with, for reading a bad case (not for the forecast to see). */
  params: Record<string, unknown>;
}

/** The first seed of each split; the held-out seeds are never used for tuning. */
export const SPLIT_SEEDS = { tune: 1, heldout: 1_000_001 } as const;
/** How many series each split has by default. */
export const DEFAULT_COUNT = 400;

/**
 * corpus returns `count` series of a split (400 by default), the same on every run: series `i` of a split
 * is `seriesOf(SPLIT_SEEDS[split] + i)`, so a smaller count is a prefix of a larger one.
 */
export function corpus(split: "tune" | "heldout", count: number = DEFAULT_COUNT): CorpusSeries[] {
  const out: CorpusSeries[] = [];
  for (let i = 0; i < count; i++) out.push(seriesOf(SPLIT_SEEDS[split] + i));
  return out;
}

/** mulberry32: a small seeded generator. */
export function rng(seed: number): () => number {
  let a = (seed * 2654435761) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
/** Day number of the 1st of month `m` (1–12) of year `y`. */
export const monthStart = (y: number, m: number): number => Date.UTC(y, m - 1, 1) / DAY_MS;
/** Day number of the last day of the month whose 1st is `first`. */
export function monthEndOf(first: number): number {
  const d = new Date(first * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0) / DAY_MS;
}
/** The weekday of a day number: 0 = Sunday (1970-01-01 was a Thursday). */
const weekdayOf = (day: number) => (day + 4) % 7;
/** Day of the month (1–31) of a day number. */
const dayOfMonth = (day: number) => new Date(day * DAY_MS).getUTCDate();

/** The true total of the month whose 1st is `first`. */
export function monthTotal(s: CorpusSeries, first: number): number {
  let sum = 0;
  for (let d = first; d <= monthEndOf(first); d++) sum += s.amounts[d - s.firstDay] ?? 0;
  return sum;
}

/**
 * seriesOf draws the series of one seed. The family is `FAMILIES[seed % 9]`, so every split of at least
 * nine consecutive seeds holds every family in equal shares.
 */
export function seriesOf(seed: number): CorpusSeries {
  const r = rng(seed);
  const family = FAMILIES[seed % FAMILIES.length]!;
  const uni = (a: number, b: number) => a + (b - a) * r();
  const logUni = (a: number, b: number) => Math.exp(uni(Math.log(a), Math.log(b)));
  const int = (a: number, b: number) => Math.floor(uni(a, b + 1));
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

  // the calendar: the last evaluated month between January 2024 and December 2026
  const endIndex = int(0, 35);
  const monthsEvaluated = family === "short-history" ? 1 : 2;
  const months: number[] = [];
  for (let k = monthsEvaluated - 1; k >= 0; k--) {
    const i = endIndex - k;
    months.push(monthStart(2024 + Math.floor(i / 12), (((i % 12) + 12) % 12) + 1));
  }
  const firstMonth = months[0]!;
  const lastDay = monthEndOf(months[months.length - 1]!);
  // history before the first as-of day (day 3 of the first evaluated month)
  const history = family === "short-history" ? int(3, 45) : Math.round(logUni(90, 730));
  const firstDay = firstMonth + 2 - history;
  const n = lastDay - firstDay + 1;

  // which effects, and how strong: the family's effect always, others in the background or in `mixed`
  const mixed = new Set<string>();
  if (family === "mixed") {
    const pool = ["weekly", "step", "trend", "monthly-charge", "delays", "spiky"];
    const k = int(2, 4);
    while (mixed.size < k) mixed.add(pool[int(0, pool.length - 1)]!);
  }
  const has = (effect: string) => family === effect || mixed.has(effect);

  const level = logUni(20, 20_000);
  const noise = uni(0.01, 0.08);
  const factors = [1, 1, 1, 1, 1, 1, 1];
  if (has("weekly")) {
    const weekend = uni(0.05, 0.8);
    factors[0] = weekend;
    factors[6] = weekend * uni(0.9, 1.1);
    if (r() < 0.3) factors[1] = uni(1.05, 1.3);
    if (r() < 0.3) factors[5] = uni(0.8, 0.95);
  } else if (family !== "flat" && r() < 0.5) {
    const weekend = uni(0.8, 1);
    factors[0] = weekend;
    factors[6] = weekend;
  }

  // steps: the day (index) and the factor from that day on. A `step` series changes every 15–90 days on
  // average (at least once in its last four months, often inside an evaluated month), sizes 5–60 %, most
  // 8–30 %; half the other series (flat and short ones aside) change now and then (every 90–365 days, 5–30 %)
  const steps: { at: number; factor: number }[] = [];
  const background = family !== "flat" && family !== "short-history" && !has("step") && r() < 0.5;
  if (has("step") || background) {
    const every = has("step") ? uni(15, 90) : uni(90, 365);
    const size = () => {
      const u = r();
      if (!has("step")) return uni(0.05, 0.3);
      return u < 0.1 ? uni(0.05, 0.08) : u < 0.75 ? uni(0.08, 0.3) : uni(0.3, 0.6);
    };
    for (
      let at = Math.ceil(-Math.log(1 - r()) * every);
      at < n - 1;
      at += Math.ceil(-Math.log(1 - r()) * every)
    )
      steps.push({ at, factor: 0 });
    if (has("step") && !steps.some((s) => s.at >= n - 120))
      steps.push({ at: int(Math.max(1, n - 120), n - 5), factor: 0 });
    for (const s of steps) {
      const x = size();
      s.factor = r() < 0.5 ? 1 + x : 1 - x;
    }
  }
  const monthlyGrowth = has("trend") ? (r() < 0.5 ? 1 : -1) * uni(0.03, 0.25) : 0;
  const perDay = Math.log(1 + monthlyGrowth) / 30;
  // the trend is anchored at the first evaluated month, so its level stays in range whatever the history
  const anchor = firstMonth - firstDay;

  const charges: { day: number; share: number }[] = [];
  if (has("monthly-charge")) {
    const k = r() < 0.7 ? 1 : 2;
    for (let j = 0; j < k; j++)
      charges.push({ day: r() < 0.5 ? 1 : int(2, 28), share: logUni(0.03, 0.5) / k });
  }
  const delayRate = has("delays") ? uni(0.05, 0.2) : 0;
  const delayWeekday = has("delays") && r() < 0.4 ? int(0, 6) : -1;
  const missingRate = has("delays") ? uni(0.01, 0.04) : 0;
  const spikeRate = has("spiky") ? uni(0.02, 0.08) : 0;

  const amounts: number[] = [];
  let stepFactor = 1;
  let nextStep = 0;
  for (let i = 0; i < n; i++) {
    const day = firstDay + i;
    while (nextStep < steps.length && steps[nextStep]!.at <= i) stepFactor *= steps[nextStep++]!.factor;
    const base = level * stepFactor * Math.exp(perDay * (i - anchor));
    let v = base * factors[weekdayOf(day)]! * Math.exp(noise * gauss());
    if (spikeRate > 0 && r() < spikeRate) v *= uni(2, 8);
    // a monthly item costs its share of a month of the base: share / (1 − share) × 30 days
    for (const c of charges)
      if (dayOfMonth(day) === c.day) v += ((base * 30 * c.share) / (1 - c.share)) * uni(0.98, 1.02);
    amounts.push(v);
  }
  // delays (a day's charges arrive with the next) and missing days (lost), after the amounts are drawn
  for (let i = 0; i < n - 1; i++) {
    const delayed = delayWeekday >= 0 ? weekdayOf(firstDay + i) === delayWeekday : r() < delayRate;
    if (delayRate > 0 && delayed) {
      amounts[i + 1]! += amounts[i]!;
      amounts[i] = 0;
    } else if (missingRate > 0 && r() < missingRate) amounts[i] = 0;
  }
  return {
    seed,
    family,
    firstDay,
    amounts: amounts.map((x) => Math.round(Math.max(0, x) * 100) / 100),
    months,
    params: {
      history,
      level: round2(level),
      noise: round2(noise),
      factors: factors.map(round2),
      steps: steps.map((s) => ({ day: firstDay + s.at, factor: round2(s.factor) })),
      monthlyGrowth: round2(monthlyGrowth),
      charges: charges.map((c) => ({ day: c.day, share: round2(c.share) })),
      delayRate: round2(delayRate),
      delayWeekday,
      missingRate: round2(missingRate),
      spikeRate: round2(spikeRate),
      mixed: [...mixed],
    },
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
