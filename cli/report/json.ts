/**
 * The report as JSON, for scripts.
 */

import { safeJson } from "../../provider/text";
import type { Report } from "./model";
import { reasonTexts } from "./words";

/**
 * reportJson is the report's JSON shape: `{generatedAt, projectId, productId, period, balance (null in a
 * replay), asOf, consumption: {total, dailyAverage, days, highestDay, trailing7DayAverage, refundDays, mergedDays, items},
 * forecast, forecastDays: [{day, p50, p80, p90}], config, evaluation, verdict}`. An infinite runway is `null`. `verdict` is the evaluation's verdict,
 * the same as `evaluation.verdict`: `pass`, `fail`, or `none` when no mandatory rule was judged (no
 * threshold, every mandatory rule disabled, or none could be judged).
 */
export function reportJson(r: Report) {
  const c = r.consumption;
  return {
    generatedAt: r.generatedAt,
    projectId: r.projectId,
    productId: r.productId,
    period: { from: r.from, to: r.to, periodFrom: c.periodFrom, periodTo: c.periodTo },
    // a replay as of a day reads no balance
    balance: r.asOf ? null : r.balance,
    asOf: r.asOf,
    consumption: {
      total: c.total,
      dailyAverage: c.dailyAverage,
      days: c.days,
      highestDay: c.highestDay,
      trailing7DayAverage: c.trailing7DayAverage,
      // days kept as answered but worth a look: negative amounts, and days sent in several items (summed)
      refundDays: c.refundDays ?? [],
      mergedDays: c.mergedDays ?? [],
      items: c.items,
    },
    forecast: forecastJson(r),
    // the forecast model's month day by day after the last day shown: median and 80 % / 90 % bounds
    forecastDays: r.forecastDays.map((d) => ({ day: d.day, p50: d.amount, p80: d.p80, p90: d.p90 })),
    allowanceToday: r.allowanceToday,
    config: r.config,
    evaluation: r.evaluation,
    verdict: r.evaluation.verdict,
    currency: r.currency,
  };
}

/**
 * forecastJson is the month's forecast as the other renderings and the gate have it: `forecast` is the
 * month-end figure the gates judge (`evaluation.figures.forecastMonthEnd`: the model's `quantile`, or the
 * trailing mean with `forecastMethod: trailing-mean`), `null` when the model has no forecast yet (under 3
 * days of charges, as the terminal says "none yet"); `method` and `quantile` name how it was made. The
 * trailing mean's own month end stays apart as `trailingMeanForecast`. `reasons` says why the model's
 * forecast moved (`{kind, day: "YYYY-MM-DD", ratio, text}`, `{kind: "day-of-month", dayOfMonth, amount,
 * text}` (with `weekday`, 0–6, for the first such weekday of each month; `rolled: true` for an item of the 29th–31st
 * billed on the next 1st after shorter months; `businessDay`, `last` or `first`, for the month's last or first
 * Monday–Friday, next on `dayOfMonth`), `{kind: "step-trend", steps, ratio, text}`, `{kind: "bursts", bursts, daily,
 * text}`, `{kind: "ramp", days, ratio, text}`...), the text with the report's currency; empty when nothing
 * did, or with the trailing mean.
 */
export function forecastJson(r: Report) {
  const f = r.evaluation.figures;
  const byModel = r.config.forecastMethod === "model";
  const modelled = byModel && f.forecast.monthEnd !== null;
  return {
    ...r.forecast,
    forecast: !byModel || modelled ? f.forecastMonthEnd : null,
    method: byModel ? f.forecast.method : "trailing-mean",
    quantile: modelled ? r.config.quantile : null,
    confidence: byModel ? f.forecast.confidence : null,
    trailingMeanForecast: r.forecast.forecast,
    reasons: byModel ? reasonsJson(r) : [],
  };
}

/** The model's reasons with the sentence the other outputs say, worded with the report's currency. */
function reasonsJson(r: Report) {
  const m = r.evaluation.figures.forecast;
  const texts = reasonTexts(m, { currency: r.currency, today: r.forecast.today });
  return texts.length === 0
    ? []
    : (m.reasons ?? []).map((reason, i) => ({ ...reason, text: texts[i] ?? reason.text }));
}

/** renderJson writes reportJson, indented, with a final newline. */
export function renderJson(r: Report): string {
  return `${safeJson(reportJson(r), 2)}\n`;
}
