/**
 * The report as Markdown for a pull-request comment: the figures and the verdicts as tables, the
 * days folded away.
 */
import { formatMoney as money } from "../../provider/money";
import { cell, findingIcon, findingsTable } from "./findings";
import type { Report } from "./model";
import { dataNotes, dayLabel, reportReasons, summarize } from "./words";

export { cell, findingIcon };

/** VERDICT_ICON is a verdict as an icon: ➖ for NO VERDICT. */
export const VERDICT_ICON = { pass: "✅", fail: "❌", none: "➖" } as const;

/**
 * renderMarkdown writes a heading with the verdict, a table of the figures, a table of the rules and,
 * in a `<details>` block, the charges per day.
 *
 * @example costgate report --project-id 4242 --monthly-budget 40000 --markdown > comment.md
 */
export function renderMarkdown(r: Report): string {
  const s = summarize(r);
  const f = r.evaluation.figures;
  const budget = r.config.monthlyBudget;
  const verdict = VERDICT_ICON[r.evaluation.verdict];
  const reasons = reportReasons(r);
  const lines = [
    `### ${verdict} costgate: ${cell(s.title)} — ${cell(s.verdict)}`,
    "",
    `${cell(s.period)}, ${r.asOf ? "as at" : "made"} ${cell(r.generatedAt.slice(0, 16).replace("T", " "))} UTC`,
    "",
    "| Figure | Value |",
    "| --- | ---: |",
    ...(r.asOf
      ? [`| Balance | not read (a replay as of ${r.asOf}) |`]
      : [`| Balance | ${money(r.balance.balance)} |`, `| Bonuses | ${money(r.balance.bonuses)} |`]),
    `| Spent in the period | ${money(r.consumption.total.amount)} (${money(r.consumption.dailyAverage)}/day) |`,
    `| Month to date | ${money(f.monthToDate)} |`,
    `| Forecast by ${cell(dayLabel(r.forecast.monthEnd, true))} | ${cell(s.forecast)} |`,
    `| Forecast method | ${cell(s.method)} |`,
    `| Monthly budget | ${budget === undefined ? "not set" : money(budget)} |`,
    `| Runway | ${cell(s.runway)} |`,
    ...dataNotes(r.consumption).map((n) => `| Note | ${cell(n)} |`),
    "",
    ...(reasons.length > 0
      ? ["**Why the forecast moved**", "", ...reasons.map((t) => `- ${cell(t)}`), ""]
      : []),
    ...findingsTable(r.evaluation.findings, { first: "result" }),
    "",
    `<details><summary>Charges per day (${r.days.length} days)</summary>`,
    "",
    "| Day | Amount | Bonuses |",
    "| --- | ---: | ---: |",
    ...r.days.map((d) => `| ${d.day} | ${money(d.amount)} | ${money(d.bonuses)} |`),
    `| **Total** | **${money(r.consumption.total.amount)}** | **${money(r.consumption.total.bonuses)}** |`,
    "",
    "</details>",
  ];
  return `${lines.join("\n")}\n`;
}
