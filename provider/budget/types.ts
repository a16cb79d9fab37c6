/**
 * The inputs and results of the budget engine. Inputs are what the billing data sources return
 * (docs/API.md#balance, docs/API.md#consumption), normalized to numbers and UTC days.
 */

/**
 * DailyCharge is one day of charges, normalized: `day` is `YYYY-MM-DD` (UTC), amounts are numbers in
 * currency units (docs/API.md#consumption). Items are expected in ascending order, possibly with gaps: a missing day
 * means no charge. The engine sorts defensively and adds up items that share a day.
 */
export interface DailyCharge {
  day: string;
  /** Total charged amount for the day. */
  totalAmount: number;
  /** Total bonuses charged for the day. */
  totalBonuses: number;
}

/**
 * BudgetInput is everything a rule looks at: the project's balance and bonuses (docs/API.md#balance), its daily
 * charges and the clock. `now` is injected so that results depend on nothing but the arguments.
 */
export interface BudgetInput {
  projectId: number;
  balance: number;
  bonuses: number;
  consumption: DailyCharge[];
  /** The injected clock: "today" is the UTC day that contains it. */
  now: Date;
}

/** RuleName names one budget rule. */
export type RuleName = "min-balance" | "monthly-budget" | "min-runway-days" | "daily-spike";

/**
 * Level is how much a rule's failure matters: a failed `mandatory` rule fails the verdict, an
 * `advisory` one is only reported (WARN), a `disabled` one is not evaluated (its finding is a `skip`).
 */
export type Level = "mandatory" | "advisory" | "disabled";

/**
 * Status is a rule's outcome. Judged: `pass` or `fail` (a failed advisory rule reads WARN). Not judged:
 * `not-judged` when the rule is configured but cannot be judged (too little data, a replay that reads no
 * balance; the message says why), `not-configured` when its threshold is not set, and `skip` only when
 * the rule was disabled on purpose (level `disabled`).
 */
export type Status = "pass" | "fail" | "skip" | "not-judged" | "not-configured";

/**
 * Verdict is a project's overall outcome: `fail` when a `mandatory` rule failed, `pass` when at least
 * one `mandatory` rule was judged and none failed, and `none` when no mandatory rule was judged (nothing
 * configured, every mandatory rule disabled, or none could be judged): never a PASS that checked nothing.
 */
export type Verdict = "pass" | "fail" | "none";

/**
 * FigureValue is one figure behind a finding. JSON-safe: an infinite runway is `null` next to a
 * figure `infinite: true`, never `Infinity`.
 */
export type FigureValue = number | string | boolean | null;

/** Finding is one rule's result: a whole-sentence message and the figures it was computed from. */
export interface Finding {
  rule: RuleName;
  level: Level;
  status: Status;
  message: string;
  figures: Record<string, FigureValue>;
}

/** EvaluationFigures are the project-wide figures `evaluate` computed, whichever rules ran. */
export interface EvaluationFigures {
  balance: number;
  bonuses: number;
  /** Sum of `totalAmount` from the 1st of the current UTC month to today, today's partial day included. */
  monthToDate: number;
  /**
   * The month-end forecast the gates judge: the model's `forecast.monthEnd` at the configured quantile
   * (default p80); under 3 days of charges, `monthToDate` + trailing daily rate × days left.
   */
  forecastMonthEnd: number;
  /** The trailing daily average (see `trailingAverage`), rounded to cents, without `extraDailyCost`. */
  dailyAverage: number;
  /** The configured `extraDailyCost` (rounded to cents) added for the forecast and the runway. */
  extraDailyCost: number;
  /**
   * Days the balance lasts, rounded down to 0.1: the model's `forecast.runwayDays` at the configured
   * quantile, or at the trailing daily rate without a model forecast; `null` when nothing is spent.
   */
  runwayDays: number | null;
  /** The last full UTC day: yesterday relative to `now`, `YYYY-MM-DD`. */
  lastFullDay: string;
  /** `totalAmount` of the last full day; 0 when that day has no charge. */
  lastFullDayAmount: number;
  /** The forecast model's view (provider/budget/model.ts): quantiles of the month's end and of the runway. */
  forecast: ForecastFigures;
}

/** Quantiles: half the time at or under p50, 80 % under p80, 90 % under p90 (for spend). */
export interface QuantileFigures {
  p50: number;
  p80: number;
  p90: number;
}

/**
 * ForecastFigures are the model's month-end and runway forecasts. For the runway, p80 and p90 are the
 * shorter ones: the days the balance lasts if spend comes in at the p80 or p90 of its forecast.
 */
export interface ForecastFigures {
  /** Month to date plus the model's spend for the rest of the month (today's rest included), with any extra daily cost. */
  monthEnd: QuantileFigures | null;
  /** Days the money lasts at the model's spend rate for the next 30 days; null when nothing is spent. */
  runwayDays: QuantileFigures | null;
  /** `weekday-level`, `run-rate` or `none` (under 3 days of history). */
  method: "weekday-level" | "run-rate" | "none";
  /** `normal`, `low` or `none`. */
  confidence: "normal" | "low" | "none";
  /** Full days of history the model saw (from the first day with a charge). */
  historyDays: number;
  /** Backtests on that history behind the intervals; 0 when too few and the days' spread widened them. */
  backtests: number;
  /**
   * What moved the forecast, as the model found it, oldest first, each with its words: a step in the
   * level, a charge recurring on a day of the month, a delay, a clipped one-off. Empty when nothing did.
   */
  reasons: ForecastReasonFigure[];
}

/**
 * ForecastReasonFigure is one thing that moved the model's forecast (provider/budget/model.ts
 * `ForecastReason`), with its day as `YYYY-MM-DD`, its ratio to 3 decimals, its amount to cents, and
 * `text`, the sentence every output says it with:
 * - `step`: the level changed on `day` by `ratio` (new ÷ old; 1.18 is +18 %);
 * - `day-of-month`: a charge of about `amount` recurs on day `dayOfMonth` of each month; with `weekday` (0
 *   Sunday … 6 Saturday), on the first such weekday of each month, next on day `dayOfMonth` (1–7); with `rolled`, a
 *   day 29–31 billed on the next month's 1st after shorter months; with `businessDay` (`last`, `first`), on the
 *   month's last (first) Monday–Friday, next on day `dayOfMonth`;
 * - `delay`: the charges of `day` arrived with the next day's;
 * - `spike`: `day` was a one-off, `ratio` times a usual day, left out of the level;
 * - `step-trend`: the level's last `steps` steps went one way, by `ratio` each (1.15 is +15 %), and the
 *   median counts on the next ones as often as they came;
 * - `bursts`: the level burst `bursts` times and came back to one base each time (bursts too close together to
 *   tell from steps): the days ahead are forecast at the history's mean day, `daily`;
 * - `ramp`: a young history's level rose through each third of its `days` days, by `ratio` a day (1.031 is +3.1 %
 *   a day): the median follows half of that growth.
 */
export type ForecastReasonFigure =
  | { kind: "step"; day: string; ratio: number; text: string }
  | {
      kind: "day-of-month";
      dayOfMonth: number;
      amount: number;
      weekday?: number;
      rolled?: boolean;
      businessDay?: "first" | "last";
      text: string;
    }
  | { kind: "delay"; day: string; text: string }
  | { kind: "spike"; day: string; ratio: number; text: string }
  | { kind: "step-trend"; steps: number; ratio: number; text: string }
  | { kind: "bursts"; bursts: number; daily: number; text: string }
  | { kind: "ramp"; days: number; ratio: number; text: string };

/** Evaluation is the outcome of `evaluate`: every rule's finding, the figures and the verdict. */
export interface Evaluation {
  projectId: number;
  /**
   * One finding per rule, in the order of `RULE_NAMES`: disabled rules included as `skip`, rules without
   * a threshold as `not-configured`.
   */
  findings: Finding[];
  figures: EvaluationFigures;
  /**
   * `fail` if and only if a `mandatory` finding has status `fail`; `pass` when a `mandatory` finding
   * passed and none failed; `none` when no mandatory rule was judged ({@link verdictOf}).
   */
  verdict: Verdict;
}
