/**
 * The one renderer of findings — the budget rules' (check, report) and the gates on a change (cost),
 * which share a shape: in the terminal, in Markdown (the report, the cost comment, the check summary),
 * and as GitHub annotations.
 */
import escapeHtml from "escape-html";
import type { Finding } from "../../provider/budget/types";
import { cleanText } from "../../provider/text";
import type { Colors } from "./colors";
import { judged, statusWord } from "./words";

/** cell makes text safe in a Markdown table cell: no HTML, no pipe, no line break, no control character. */
export function cell(text: string): string {
  return escapeHtml(cleanText(text)).replace(/\|/g, "\\|");
}

/** findingIcon is a finding's outcome as an icon, beside its word: ⚠️ for a failed advisory rule (WARN). */
export function findingIcon(f: Pick<Finding, "status" | "level">): string {
  if (f.status === "fail") return f.level === "mandatory" ? "❌" : "⚠️";
  return { pass: "✅", skip: "⏭️", "not-judged": "❔", "not-configured": "➖" }[f.status];
}

/** What every renderer reads of a finding. */
export type FindingView = Pick<Finding, "level" | "status" | "message"> & { rule: string };

/**
 * findingLine is a finding on one line: the word, the rule (with its level in brackets when `level`),
 * the message (`message` replaces it, e.g. with the flag that sets the rule).
 */
export function findingLine(f: FindingView, o: { level?: boolean; message?: string } = {}): string {
  const label = o.level ? `${f.rule} (${f.level})` : f.rule;
  return `  ${statusWord(f).padEnd(o.level ? 11 : 5)}${label.padEnd(o.level ? 29 : 22)}${cleanText(o.message ?? f.message)}`;
}

/**
 * findingBlock is a finding as the report's terminal lays it out: the word tinted, the rule in bold,
 * the level dimmed, the message wrapped below (by `wrap`).
 */
export function findingBlock(f: FindingView, c: Colors, wrap: (text: string) => string[]): string[] {
  const tint =
    f.status === "pass"
      ? c.green
      : f.status === "fail"
        ? f.level === "mandatory"
          ? c.red
          : c.yellow
        : c.dim;
  const head = `  ${tint(statusWord(f).padEnd(5))} ${c.bold(f.rule.padEnd(16))} ${c.dim(f.level)}`;
  return [head, ...wrap(f.message).map((l) => (judged(f) ? l : c.dim(l)))];
}

/**
 * findingsTable is the findings as a Markdown table, every cell escaped: `result` first (the report:
 * an icon beside the word) or `rule` first (the check summary and the cost comment; `name` heads the
 * rule's column).
 */
export function findingsTable(
  findings: readonly FindingView[],
  o: { first: "result" | "rule"; name?: string },
): string[] {
  if (o.first === "result")
    return [
      "| Result | Rule | Level | Finding |",
      "| --- | --- | --- | --- |",
      ...findings.map(
        (x) =>
          `| ${findingIcon(x)} ${statusWord(x)} | \`${cell(x.rule)}\` | ${x.level} | ${cell(x.message)} |`,
      ),
    ];
  return [
    `| ${o.name ?? "Rule"} | Level | Result | Message |`,
    "| --- | --- | --- | --- |",
    ...findings.map((x) => `| \`${cell(x.rule)}\` | ${x.level} | ${statusWord(x)} | ${cell(x.message)} |`),
  ];
}

/**
 * annotations are GitHub Actions' workflow commands: an error for a failed mandatory finding, a warning
 * for a failed advisory one, each titled with `title` and the rule (`costgate min-balance (project 7)`).
 */
export function annotations(findings: readonly FindingView[], where: string): string {
  return findings
    .filter((f) => f.status === "fail")
    .map(
      (f) =>
        `::${f.level === "mandatory" ? "error" : "warning"} title=costgate ${f.rule} (${where})::${annotationText(f.message)}\n`,
    )
    .join("");
}

/** annotationText encodes a message for a workflow command: %, CR and LF escaped. */
export function annotationText(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
