/**
 * Builders for report tests: a fixed clock and a "happy path" project, built without I/O.
 *
 * The happy path: project 4242 on 2026-11-22 at 10:00 UTC; 60 days from 2026-09-24, 1,000.00 on
 * weekdays and 600.00 at weekends, a 4,000.00 spike on 2026-11-10, 400.00 so far today; a balance of
 * 30,000.00 with 1,200.00 of bonuses; a monthly budget of 30,000.00.
 */
import Big from "big.js";
import { buildReport, type Report } from "../../cli/report/model";
import { addDays } from "../../provider/billing/periods";
import { type RawDay, summarize } from "../../provider/billing/results";
import type { BudgetConfig } from "../../provider/budget";
import { type ReasonFields, reasonText } from "../../provider/budget/reasons";
import type { ForecastReasonFigure } from "../../provider/budget/types";

export const NOW = new Date("2026-11-22T10:00:00Z");
export const TODAY = "2026-11-22";

/** amountOn is the happy path's charge of a day. */
export function amountOn(day: string): number {
  if (day === TODAY) return 400;
  if (day === "2026-11-10") return 4000;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6 ? 600 : 1000;
}

/** consumption builds the summarized charges of `days` days up to `to`. */
export function consumption(days = 60, to = TODAY, amount: (day: string) => number = amountOn) {
  const from = addDays(to, -(days - 1));
  const raw: RawDay[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    raw.push({ day: d, amount: new Big(amount(d)), bonuses: new Big(d.endsWith("5") ? 12.5 : 0) });
  }
  return summarize(
    {
      projectId: 4242,
      productId: 1,
      periodFrom: `${from}T00:00:00.000Z`,
      periodTo: `${to}T23:59:59.999Z`,
      fromDay: from,
      toDay: to,
    },
    raw,
    { fillMissingDays: true, today: TODAY },
  );
}

export const CONFIG: BudgetConfig = {
  monthlyBudget: 30000,
  minBalance: 10000,
  minRunwayDays: 14,
  spikeFactor: 2,
};

/** happyReport builds the happy-path report with some parts changed. */
export function happyReport(
  change: { days?: number; config?: BudgetConfig; balance?: number; amount?: (day: string) => number } = {},
): Report {
  return buildReport({
    balance: {
      projectId: 4242,
      productId: 1,
      balance: change.balance ?? 30000,
      bonuses: 1200,
      fetchedAt: NOW.toISOString(),
    },
    consumption: consumption(change.days ?? 60, TODAY, change.amount),
    config: change.config ?? CONFIG,
    now: NOW,
  });
}

/** ANSI matches a color escape sequence. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
export const ANSI = /\x1b\[/;

/** One reason of each kind the model can give, as the report's fields hold them (days of the happy path). */
export const EVERY_REASON: ReasonFields[] = [
  { kind: "day-of-month", dayOfMonth: 1, amount: 1250 },
  { kind: "delay", day: "2026-11-03" },
  { kind: "spike", day: "2026-11-10", ratio: 3.2 },
  { kind: "step", day: "2026-11-12", ratio: 1.18 },
];

/** withReasons is a report whose model gave these reasons (the evaluation's own words, without currency). */
export function withReasons(r: Report, reasons: ReasonFields[]): Report {
  const figures = reasons.map(
    (x) => ({ ...x, text: reasonText(x, { today: TODAY }) }) as ForecastReasonFigure,
  );
  const f = r.evaluation.figures;
  return {
    ...r,
    evaluation: { ...r.evaluation, figures: { ...f, forecast: { ...f.forecast, reasons: figures } } },
  };
}
