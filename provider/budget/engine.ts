/**
 * The engine: runs the configured rules over one project's input and gives the verdict.
 */

import { dayString } from "../calendar";
import { trailingOf } from "./average";
import { type BudgetConfig, parseBudgetConfig } from "./config";
import { dailySpikeRule } from "./daily-spike";
import type { MonthForecast } from "./forecast";
import { forecastOf } from "./forecast";
import { minBalanceRule } from "./min-balance";
import { minRunwayDaysRule } from "./min-runway-days";
import { type ForecastModel, forecastModel } from "./model";
import { cents, fromCents } from "./money";
import { monthlyBudgetRule } from "./monthly-budget";
import { reasonFiguresOf } from "./reasons";
import type { BudgetRule, RuleContext } from "./rule";
import { availableOf, runwayOf } from "./runway";
import type { Series } from "./series";
import { amountOn, centsOn, checkInput, firstChargeBefore, numberOn, toSeries } from "./series";
import type { BudgetInput, Evaluation, Finding, ForecastFigures, QuantileFigures } from "./types";
import { verdictOf } from "./verdict";

/** budgetRules lists every budget rule, in the order `evaluate` runs them. */
export const budgetRules: readonly BudgetRule[] = [
  minBalanceRule,
  monthlyBudgetRule,
  minRunwayDaysRule,
  dailySpikeRule,
];

/**
 * evaluate runs every budget rule over one project's balance and consumption and returns one finding per
 * rule, the figures behind them and the verdict ({@link verdictOf}): `fail` if and only if a `mandatory`
 * finding failed, `pass` only when a `mandatory` rule was judged, else `none`.
 * Nothing is thrown for a failed rule; a bad input or configuration throws a `ConfigError` naming the
 * field. The result is plain JSON (an infinite runway is `null`).
 *
 * `config.extraDailyCost` evaluates the project "after a change": the cost is added to the trailing
 * average for the forecast and the runway (negative for deletions), not to what was already spent.
 *
 * @example
 * const result = evaluate(
 *   { projectId: 4242, balance: 12400, bonuses: 0, consumption, now: new Date() },
 *   { minBalance: 20000, monthlyBudget: 50000, minRunwayDays: 14, levels: { "daily-spike": "disabled" } },
 * );
 * if (result.verdict === "fail") {
 *   for (const f of result.findings) if (f.status === "fail") console.error(`${f.level}: ${f.message}`);
 * }
 */
export function evaluate(input: BudgetInput, config: BudgetConfig = {}): Evaluation {
  // the forecast path is the report's: not drawn here (a quarter of a project's evaluation)
  return evaluated(input, config).evaluation;
}

/**
 * evaluateWithPath is `evaluate` and `forecastPath` from one reading of the history (the report draws
 * both): the model's fits are made once.
 * @internal
 */
export function evaluateWithPath(
  input: BudgetInput,
  config: BudgetConfig = {},
  opts: { fromToday?: boolean } = {},
): { evaluation: Evaluation; path: ForecastPathDay[] } {
  const { evaluation, model, series, forecast, cfg } = evaluated(input, config);
  return { evaluation, path: pathOf(model, series, forecast, cfg.extraDailyCost, opts.fromToday) };
}

/** evaluated reads the history once and judges every rule; what evaluateWithPath draws the path from. */
function evaluated(input: BudgetInput, config: BudgetConfig) {
  const cfg = parseBudgetConfig(config);
  checkInput(input, ["projectId", "balance", "bonuses"]);
  const series = toSeries(input);
  const trailing = trailingOf(series, cfg.trailingDays);
  const forecast = forecastOf(series, trailing, cfg.extraDailyCost);
  const runway = runwayOf(
    availableOf(input.balance, input.bonuses, cfg.includeBonuses),
    trailing,
    cfg.extraDailyCost,
  );
  const model = modelOf(series);
  const modelFigures = forecastFiguresOf(
    model,
    series,
    forecast,
    runway.available,
    cfg.extraDailyCost,
    input.now,
  );
  const ctx: RuleContext = { input, config: cfg, series, trailing, forecast, runway, model: modelFigures };
  const byModel = cfg.forecastMethod === "model";

  const findings = budgetRules.map((rule): Finding => {
    const level = cfg.levels[rule.name];
    if (level === "disabled") {
      return {
        rule: rule.name,
        level,
        status: "skip",
        message: `The ${rule.name} rule is disabled for project ${input.projectId}.`,
        figures: {},
      };
    }
    const { status, message, figures } = rule.check(ctx);
    return { rule: rule.name, level, status, message, figures };
  });

  const lastFullDay = series.today - 1;
  const lastCents = centsOn(series, lastFullDay);
  const evaluation: Evaluation = {
    projectId: input.projectId,
    findings,
    figures: {
      balance: cents(input.balance),
      bonuses: cents(input.bonuses),
      monthToDate: forecast.monthToDate,
      // the quantile the gates judge (the trailing-mean forecast under 3 days of charges)
      forecastMonthEnd: (byModel ? modelFigures.monthEnd?.[cfg.quantile] : undefined) ?? forecast.forecast,
      dailyAverage: trailing.average,
      extraDailyCost: forecast.extraDailyCost,
      runwayDays:
        (byModel && !runway.exhausted ? modelFigures.runwayDays?.[cfg.quantile] : undefined) ?? runway.days,
      lastFullDay: dayString(lastFullDay),
      lastFullDayAmount:
        lastCents !== undefined ? fromCents(lastCents) : cents(amountOn(series, lastFullDay)),
      forecast: modelFigures,
    },
    verdict: verdictOf(findings),
  };
  return { evaluation, model, series, forecast, cfg };
}

/** A day of the forecast path: the spend expected that day at each quantile (extra daily cost included). */
export interface ForecastPathDay extends QuantileFigures {
  day: string;
}

/**
 * forecastPath is the forecast model's month day by day, from tomorrow (or with `fromToday`, today: a
 * replay at 00:00) to the month's end (UTC): what the report's band draws. Empty under 3 days of charges. `extraDailyCost` is added to every day.
 *
 * @example
 * const days = forecastPath({ consumption, now: new Date() }, { extraDailyCost: 12 });
 * days[0]; // { day: "2026-11-24", p50: 1004.1, p80: 1040.2, p90: 1062.9 }
 */
export function forecastPath(
  input: Pick<BudgetInput, "consumption" | "now">,
  config: BudgetConfig = {},
  opts: { fromToday?: boolean } = {},
): ForecastPathDay[] {
  const cfg = parseBudgetConfig(config);
  const series = toSeries(input);
  const month = forecastOf(series, trailingOf(series, cfg.trailingDays), cfg.extraDailyCost);
  return pathOf(modelOf(series), series, month, cfg.extraDailyCost, opts.fromToday);
}

/** A series' model and today's charge so far. */
interface SeriesModel {
  model: ForecastModel;
  todaySoFar: number;
}

function modelOf(series: Series): SeriesModel {
  const { days, todaySoFar } = modelHistoryOf(series);
  return { model: forecastModel(days, series.today), todaySoFar };
}

function pathOf(
  m: SeriesModel,
  series: Series,
  month: MonthForecast,
  extraDailyCost: number,
  fromToday = false,
): ForecastPathDay[] {
  const f = m.model.forecast(m.todaySoFar, series.today + month.daysLeft);
  const first = fromToday ? 0 : 1;
  return f.path.slice(first).map((q, i) => ({
    day: dayString(series.today + first + i),
    ...mapQ(q, (x) => cents(x + extraDailyCost)),
  }));
}

/** The series' full days from the first with a charge to yesterday, and today's charge so far. */
function modelHistoryOf(series: Series): { days: number[]; todaySoFar: number } {
  const days: number[] = [];
  const first = firstChargeBefore(series, series.today);
  if (first !== undefined) for (let d = first; d < series.today; d++) days.push(numberOn(series, d));
  return { days, todaySoFar: numberOn(series, series.today) };
}

/**
 * forecastFiguresOf runs the forecast model over the series' full days (from the first day with a
 * charge to yesterday) and today's charge so far.
 */
function forecastFiguresOf(
  { model, todaySoFar }: SeriesModel,
  series: Series,
  month: MonthForecast,
  available: number,
  extraDailyCost: number,
  now: Date,
): ForecastFigures {
  const toMonthEnd = model.forecast(todaySoFar, series.today + month.daysLeft);
  const base = {
    method: toMonthEnd.method,
    confidence: toMonthEnd.confidence,
    historyDays: toMonthEnd.historyDays,
    backtests: toMonthEnd.backtests,
    reasons: reasonFiguresOf(toMonthEnd.reasons, series.today),
  };
  if (!toMonthEnd.remaining) return { monthEnd: null, runwayDays: null, ...base };
  // a planned change costs from now: the rest of today and the days left (× 24 h = its monthly price
  // pro-rated over the hours left at 730 h a month, as `costgate cost` says it)
  const restOfToday = 1 - (now.getTime() - series.today * 86_400_000) / 86_400_000;
  const extra = extraDailyCost * (month.daysLeft + Math.min(1, Math.max(0, restOfToday)));
  const monthEnd = mapQ(toMonthEnd.remaining, (r) => cents(month.monthToDate + Math.max(0, r + extra)));
  const next30 = model.forecast(todaySoFar, series.today + 29);
  let runwayDays: QuantileFigures | null = null;
  if (next30.remaining) {
    if (available <= 0) runwayDays = { p50: 0, p80: 0, p90: 0 };
    else {
      // the day each quantile's path of spend (the model's days, today's rest first, plus the planned
      // change) reaches the balance; p80 and p90 spend at least p50's, so they run out no later
      const at = (q: keyof QuantileFigures) =>
        daysUntilSpent(
          available,
          next30.path.map((d) => d[q]),
          extraDailyCost,
        );
      const p50 = at("p50");
      if (Number.isFinite(p50))
        runwayDays = { p50, p80: Math.min(p50, at("p80")), p90: Math.min(p50, at("p90")) };
    }
  }
  return { monthEnd, runwayDays, ...base };
}

/**
 * daysUntilSpent is how many days (to 0.1, rounded down) `available` lasts when day `i` costs `days[i]` plus
 * `extraDailyCost` (never below 0), and the days' mean rate after the last; Infinity when nothing is spent.
 */
function daysUntilSpent(available: number, days: number[], extraDailyCost: number): number {
  let left = available;
  let total = 0;
  for (let i = 0; i < days.length; i++) {
    const a = Math.max(0, days[i]! + extraDailyCost);
    total += a;
    if (a >= left) return Math.floor((i + left / a) * 10) / 10;
    left -= a;
  }
  const rate = total / Math.max(1, days.length);
  return rate > 0 ? Math.floor((days.length + left / rate) * 10) / 10 : Number.POSITIVE_INFINITY;
}

function mapQ(q: QuantileFigures, f: (x: number) => number): QuantileFigures {
  return { p50: f(q.p50), p80: f(q.p80), p90: f(q.p90) };
}
