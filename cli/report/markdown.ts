/**
 * The report as Markdown for a pull-request comment: the figures and the verdicts as tables, the
 * days folded away.
 */
import escapeHtml from "escape-html";
import type { Finding } from "../../provider/budget/types";
import { cleanText } from "../../provider/text";
import { money } from "../format";
import type { Report } from "./model";
import { dataNotes, dayLabel, reportReasons, statusWord, summarize } from "./words";

/** cell makes text safe in a table cell: no HTML, no pipe, no line break, no control character. */
export function cell(text: string): string {
  return escapeHtml(cleanText(text)).replace(/\|/g, "\\|");
}

/** ICON is a finding's outcome as an icon, beside its word: ⚠️ for a failed advisory rule (WARN). */
export function findingIcon(f: Pick<Finding, "status" | "level">): string {
  if (f.status === "fail") return f.level === "mandatory" ? "❌" : "⚠️";
  return { pass: "✅", skip: "⏭️", "not-judged": "❔", "not-configured": "➖" }[f.status];
}

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
    "| Result | Rule | Level | Finding |",
    "| --- | --- | --- | --- |",
    ...r.evaluation.findings.map(
      (x) => `| ${findingIcon(x)} ${statusWord(x)} | \`${x.rule}\` | ${x.level} | ${cell(x.message)} |`,
    ),
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
