/**
 * The forecast model (issue 14): a robust daily level times seven weekday factors, spikes clipped, a
 * change-point reset, the rest of today forecast, and prediction intervals from the model's own
 * backtested errors on the project's history (empirical quantiles, not a normal guess). Pure: numbers in,
 * numbers out; `bench/backtest.ts` measures it against the trailing mean, run-rate and seasonal-naive.
 */

/** Quantiles of a forecast: half the time below p50, 80 % of the time below p80, 90 % below p90. */
export interface Quantiles {
  p50: number;
  p80: number;
  p90: number;
}

/**
 * ForecastReason is one thing the model found in the history that moves its forecast, for the report to
 * say in words. `day` is a day number (days since 1970-01-01, UTC).
 * - `step`: the level changed on `day` by `ratio` (new ÷ old; 1.2 is +20 %); the days before are read at the new level.
 * - `day-of-month`: a charge of about `amount` recurs on day `dayOfMonth` of each month and is forecast there.
 * - `delay`: the charges of `day` arrived with the next day's (a zero, then a catch-up); read as one delay.
 * - `spike`: the day's charge was clipped as a one-off (`ratio` times the level).
 */
export type ForecastReason =
  | { kind: "step"; day: number; ratio: number }
  | { kind: "day-of-month"; dayOfMonth: number; amount: number }
  | { kind: "delay"; day: number }
  | { kind: "spike"; day: number; ratio: number };

/** What the model says of the days to come. */
export interface ModelForecast {
  /** What moved the forecast, oldest first (empty when nothing did). */
  reasons: ForecastReason[];
  /** `weekday-level` (≥ 14 days of history), `run-rate` (3–13 days) or `none` (under 3 days). */
  method: "weekday-level" | "run-rate" | "none";
  /** `normal`, `low` (short history or too few backtests for the intervals) or `none`. */
  confidence: "normal" | "low" | "none";
  /** Full days of history the model saw. */
  historyDays: number;
  /** The expected spend per day (the level, weekday mix averaged out). */
  dailyRate: number;
  /** Spend still to come from now to the end of the horizon, the rest of today included. */
  remaining: Quantiles | null;
  /** How many backtests gave the intervals (0: the fallback widening was used). */
  backtests: number;
  /**
   * Day by day from today (its rest) to the horizon's last day: the expected spend scaled to each
   * quantile of `remaining` (the days' quantiles sum to `remaining`'s). Empty without a forecast.
   */
  path: Quantiles[];
}

const DAY_WEEK = 7;
/** How much wider than the history's own backtest errors the intervals are (docs/FORECAST.md). */
const SPREAD = 1.5;
/** 1970-01-01 (day 0) was a Thursday: weekday of day n is (n + 4) % 7, 0 = Sunday. */
export const weekdayOf = (day: number): number => (day + 4) % DAY_WEEK;

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 1;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** A fitted model: the level, the weekday factors and the spread of its deseasonalized days. */
interface Fit {
  level: number;
  factors: number[];
  method: "weekday-level" | "run-rate";
  /** Robust spread (MAD × 1.4826) of the deseasonalized days, for the fallback intervals. */
  sigma: number;
}

/**
 * fit reads `amounts` (full days, oldest first; the last is yesterday of `firstDay + amounts.length`).
 * undefined under 3 days.
 */
function fitModel(amounts: number[], firstDay: number): Fit | undefined {
  const n = amounts.length;
  if (n < 3) return undefined;
  const window = amounts.slice(-56);
  const start = firstDay + n - window.length;
  const med = median(window);
  const mad = median(window.map((x) => Math.abs(x - med))) * 1.4826;
  // spikes do not drag the level: a day above median + 5 robust sigmas counts as that bound
  const cap = mad > 0 ? med + 5 * mad : med > 0 ? med * 3 : Number.POSITIVE_INFINITY;
  const clipped = window.map((x) => Math.min(x, cap));
  if (n < 14) {
    const rate = clipped.reduce((a, b) => a + b, 0) / clipped.length;
    return { level: rate, factors: Array(7).fill(1), method: "run-rate", sigma: mad };
  }
  const mean = clipped.reduce((a, b) => a + b, 0) / clipped.length;
  const factors = Array(7).fill(1) as number[];
  if (mean > 0) {
    for (let w = 0; w < 7; w++) {
      const vs = clipped.filter((_, i) => weekdayOf(start + i) === w);
      if (vs.length === 0) continue;
      const raw = vs.reduce((a, b) => a + b, 0) / vs.length / mean;
      // shrunk towards 1 when few weeks back it (k / (k + 0.5) for k weeks)
      factors[w] = 1 + ((raw - 1) * vs.length) / (vs.length + 0.5);
    }
    const avg = factors.reduce((a, b) => a + b, 0) / 7;
    for (let w = 0; w < 7; w++) factors[w] = factors[w]! / avg;
  }
  const des = clipped.map((x, i) => x / Math.max(factors[weekdayOf(start + i)]!, 1e-9));
  // a level series (its last 4 weeks' median within 8 % of the 4 before) is averaged longer: 8 weeks,
  // half-life 14 days; otherwise 4 weeks, half-life 7, to follow it
  const m1 = median(des.slice(-56, -28));
  const m2 = median(des.slice(-28));
  const stable = des.length >= 56 && m1 > 0 && m2 > 0 && Math.abs(Math.log(m2 / m1)) < 0.08;
  const halfLife = stable ? 14 : 7;
  const recent = des.slice(stable ? -56 : -28);
  let wsum = 0;
  let level = 0;
  recent.forEach((x, i) => {
    const w = 0.5 ** ((recent.length - 1 - i) / halfLife);
    wsum += w;
    level += w * x;
  });
  level /= wsum;
  const dmed = median(recent);
  const sigma = Math.max(median(recent.map((x) => Math.abs(x - dmed))) * 1.4826, 0.05 * Math.abs(level));
  // change point: the last 3 days all on one side of the level, their mean beyond 2.5 sigmas
  const last3 = des.slice(-3);
  const m3 = last3.reduce((a, b) => a + b, 0) / 3;
  const sameSide = last3.every((x) => x > level) || last3.every((x) => x < level);
  if (sameSide && Math.abs(m3 - level) > 2.5 * sigma) level = m3;
  return { level: Math.max(0, level), factors, method: "weekday-level", sigma };
}

function expected(f: Fit, day: number): number {
  return f.level * f.factors[weekdayOf(day)]!;
}

/** pointRemaining is the expected spend of the days `from`..`to` (day numbers), today's rest included. */
function pointRemaining(f: Fit, today: number, todaySoFar: number, lastDay: number): number {
  let sum = Math.max(0, expected(f, today) - todaySoFar);
  for (let d = today + 1; d <= lastDay; d++) sum += expected(f, d);
  return sum;
}

/**
 * levelShift finds a step change in the history: the split (at least 7 days from either end, within the
 * last 70 days) whose two sides' medians (28 days each at most) differ most, when they differ by more than
 * 35 % and each side is level on its own (its halves' medians within 12 %: growth is not a step). Returns
 * where, and the after ÷ before ratio; undefined for none. Without it the backtests that straddle an old
 * step read as a bias and pull p50 away (docs/FORECAST.md: 8.4 % median error at day 10 on steps, 3.3 %
 * with it).
 */
function levelShift(amounts: number[]): { at: number; ratio: number } | undefined {
  const n = amounts.length;
  const STEP_MIN = Math.log(1.35);
  const SIDE_MAX = 0.12;
  let best: { at: number; ratio: number; score: number } | undefined;
  for (let k = Math.max(7, n - 70); k <= n - 7; k++) {
    const before = amounts.slice(Math.max(0, k - 28), k);
    const after = amounts.slice(k, Math.min(n, k + 28));
    const mb = median(before);
    const ma = median(after);
    if (mb <= 0 || ma <= 0) continue;
    const score = Math.abs(Math.log(ma / mb));
    if (score > STEP_MIN && (!best || score > best.score)) best = { at: k, ratio: ma / mb, score };
  }
  if (!best) return undefined;
  const side = (xs: number[]) => {
    const h = Math.floor(xs.length / 2);
    const a = median(xs.slice(0, h));
    const b = median(xs.slice(h));
    return a > 0 && b > 0 ? Math.abs(Math.log(b / a)) : 0;
  };
  const before = amounts.slice(Math.max(0, best.at - 28), best.at);
  const after = amounts.slice(best.at, Math.min(n, best.at + 28));
  if (before.length >= 14 && side(before) > SIDE_MAX) return undefined;
  if (after.length >= 14 && side(after) > SIDE_MAX) return undefined;
  return { at: best.at, ratio: best.ratio };
}

/** A history read once: forecasts to any horizon share its step adjustment, its fit and its backtest fits. */
export interface ForecastModel {
  /** The spend from now (`todaySoFar` already charged today) to `lastDay`, with its quantiles. */
  forecast(todaySoFar: number, lastDay: number): ModelForecast;
}

/**
 * forecastModel reads `rawAmounts`, the full days before `today` (oldest first, ending yesterday). Intervals
 * come from backtests on the same history: the model is refitted at up to 60 earlier origins and its
 * forecast of the following days compared with what was spent; the quantiles of actual ÷ forecast scale the
 * point forecast. Under 8 backtests, a widening from the days' spread is used and confidence is low. The
 * refits depend on the origin only, so each is made once for every horizon asked; a forecast asked twice
 * is made once.
 *
 * @example
 * const model = forecastModel(last84Days, todayNumber);
 * model.forecast(312.5, monthEndNumber).remaining?.p80; // 80 % likely to spend at most this to the month's end
 */
export function forecastModel(rawAmounts: number[], today: number): ForecastModel {
  // a step change in the history: the days before it are scaled to the new level, so that the weekday
  // factors, the level and the backtests all read one regime
  const shift = levelShift(rawAmounts);
  const amounts = shift ? rawAmounts.map((x, i) => (i < shift.at ? x * shift.ratio : x)) : rawAmounts;
  const n = amounts.length;
  const firstDay = today - n;
  const f = fitModel(amounts, firstDay);
  const fits = new Map<number, Fit | undefined>();
  const fitAt = (o: number) => {
    if (!fits.has(o)) fits.set(o, fitModel(amounts.slice(0, o), firstDay));
    return fits.get(o);
  };
  const forecasts = new Map<string, ModelForecast>();
  return {
    forecast(todaySoFar, lastDay) {
      const key = `${todaySoFar}:${lastDay}`;
      const known = forecasts.get(key);
      if (known) return known;
      const made = forecastOnce(todaySoFar, lastDay);
      forecasts.set(key, made);
      return made;
    },
  };

  function forecastOnce(todaySoFar: number, lastDay: number): ModelForecast {
    if (!f) {
      return {
        method: "none",
        confidence: "none",
        historyDays: n,
        dailyRate: 0,
        remaining: null,
        backtests: 0,
        path: [],
        reasons: [],
      };
    }
    const point = pointRemaining(f, today, todaySoFar, lastDay);
    const horizon = lastDay - today + 1;
    const ratios: number[] = [];
    // origins whose following days cover the whole horizon: errors of the same length as the forecast's
    for (let o = n - horizon; o >= 14 && ratios.length < 60; o--) {
      const past = fitAt(o);
      if (!past) break;
      let pred = 0;
      let actual = 0;
      for (let i = 0; i < horizon; i++) {
        pred += expected(past, firstDay + o + i);
        actual += amounts[o + i]!;
      }
      if (pred > 0) ratios.push(actual / pred);
    }
    let remaining: Quantiles;
    let confidence: ModelForecast["confidence"] = f.method === "run-rate" ? "low" : "normal";
    if (ratios.length >= 8) {
      // the backtests see only the history's own surprises; the month ahead may bring a new one (a step,
      // a spike): the spread above the median is widened by SPREAD, measured by `npm run backtest`
      const q50 = quantile(ratios, 0.5);
      const widen = (q: number) => q50 + Math.max(0, q - q50) * SPREAD;
      remaining = {
        p50: point * q50,
        p80: point * widen(quantile(ratios, 0.8)),
        p90: point * widen(quantile(ratios, 0.9)),
      };
    } else {
      // too few backtests: widen by the days' spread over the horizon (independent days)
      const rel = f.level > 0 ? f.sigma / f.level : 0;
      const spread = rel / Math.sqrt(Math.max(1, horizon));
      remaining = { p50: point, p80: point * (1 + 0.84 * spread), p90: point * (1 + 1.28 * spread) };
      confidence = "low";
    }
    const path: Quantiles[] = [];
    for (let d = today; d <= lastDay; d++) {
      const e = d === today ? Math.max(0, expected(f, today) - todaySoFar) : expected(f, d);
      const share = point > 0 ? e / point : 0;
      path.push({ p50: remaining.p50 * share, p80: remaining.p80 * share, p90: remaining.p90 * share });
    }
    return {
      method: f.method,
      confidence,
      historyDays: n,
      dailyRate: f.level,
      remaining,
      backtests: ratios.length >= 8 ? ratios.length : 0,
      path,
      reasons: shift ? [{ kind: "step", day: firstDay + shift.at, ratio: shift.ratio }] : [],
    };
  }
}

/**
 * forecastDays forecasts the spend from now (`today`, with `todaySoFar` already charged) to `lastDay`
 * from `amounts`, the full days before today: `forecastModel(amounts, today).forecast(todaySoFar, lastDay)`.
 *
 * @example
 * const f = forecastDays(last60Days, todayNumber, 312.5, monthEndNumber);
 * f.remaining?.p80; // 80 % likely to spend at most this from now to the month's end
 */
export function forecastDays(
  amounts: number[],
  today: number,
  todaySoFar: number,
  lastDay: number,
): ModelForecast {
  return forecastModel(amounts, today).forecast(todaySoFar, lastDay);
}
