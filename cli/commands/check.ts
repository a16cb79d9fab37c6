/**
 * `costgate check`: the budget rules on live billing data, with an exit code for CI.
 * 0 every mandatory rule judged passes, 1 a mandatory rule fails, 2 bad usage or no verdict (no mandatory
 * rule could be judged), 3 billing unreachable.
 */
import pLimit from "p-limit";
import { THRESHOLD_OF } from "../../provider/budget/config";
import type { Evaluation } from "../../provider/budget/types";
import { noVerdictReason } from "../../provider/budget/verdict";
import { addDays } from "../../provider/calendar";
import { checkProject } from "../../provider/check";
import { isConfigError } from "../../provider/errors";
import { cleanText, safeJson } from "../../provider/text";
import { EXIT, UsageError } from "../errors";
import { writeOutputs } from "../files";
import { billingEndpoint } from "../options/billing";
import { type CheckOptions, flagOf } from "../options/gate";
import { annotations, annotationText, findingLine, findingsTable } from "../report/findings";
import { cell, VERDICT_ICON } from "../report/markdown";
import {
  dataNotes,
  judged,
  reasonTexts,
  SHOWN_REASONS,
  VERDICT_WORD,
  verdictSentence,
} from "../report/words";
import { appendSummary } from "../summary";

/**
 * checkText is one project's check in text: the verdict, a line per rule, under monthly-budget a line per
 * reason the forecast moved, then the notes.
 * @internal
 */
export function checkText(e: Evaluation, notes: string[] = []): string {
  const lines = [`Project ${e.projectId}: ${verdictSentence(e)}`];
  for (const f of e.findings) {
    const unset = f.status === "not-configured";
    // the library names its fields (set minBalance); here the flags are what the user sets
    const message = unset
      ? `not configured; set ${f.rule in THRESHOLD_OF ? flagOf(THRESHOLD_OF[f.rule as keyof typeof THRESHOLD_OF]) : "its threshold"} to check it`
      : f.message;
    lines.push(findingLine(f, { level: true, message }));
    // why the model's month-end forecast is what it is, under the rule that judges it
    if (f.rule === "monthly-budget" && judged(f) && f.figures["method"] !== "trailing-mean") {
      const today = addDays(e.figures.lastFullDay, 1);
      for (const why of reasonTexts(e.figures.forecast, { today, max: SHOWN_REASONS }))
        lines.push(`${" ".repeat(13)}why: ${why}`);
    }
  }
  for (const n of notes) lines.push(`  note: ${n}`);
  return lines.join("\n");
}

/**
 * annotations are GitHub Actions' workflow commands: an error for a failed mandatory rule, a warning for a
 * failed advisory one, and an error for a project with no verdict (nothing mandatory was judged).
 */
function checkAnnotations(e: Evaluation): string {
  const none =
    e.verdict === "none"
      ? `::error title=costgate (project ${e.projectId})::${annotationText(`${VERDICT_WORD.none}: ${noVerdictReason(e)}`)}\n`
      : "";
  return none + annotations(e.findings, `project ${e.projectId}`);
}

/** summaryMarkdown is the check as Markdown for GITHUB_STEP_SUMMARY: one table per project. */
function summaryMarkdown(
  results: { projectId: number; evaluation?: Evaluation; error?: string; notes?: string[] }[],
): string {
  const out: string[] = [];
  for (const r of results) {
    if (!r.evaluation) {
      out.push(`### ❔ costgate check: project ${r.projectId} — UNKNOWN`, "", cell(r.error ?? ""), "");
      continue;
    }
    const e = r.evaluation;
    out.push(
      `### ${VERDICT_ICON[e.verdict]} costgate check: project ${e.projectId} — ${cell(verdictSentence(e))}`,
      "",
      ...findingsTable(e.findings, { first: "rule" }),
      "",
      ...(r.notes ?? []).map((n) => `Note: ${cell(n)}\n`),
    );
  }
  return `${out.join("\n")}\n`;
}

/** checkCommand checks each project its options name (every flag and the config file checked before), and reports. */
export async function checkCommand(o: CheckOptions): Promise<number> {
  const { targets, product, concurrency, asOf, now, summary, json } = o;
  const ep = billingEndpoint(o.endpoint);
  // two requests a project at least (balance, charges): a list the run's cap cannot cover is refused
  // before the first request rather than cut off in the middle
  const cap = o.endpoint.runBudget.limit;
  if (targets.length * 2 > cap) {
    throw new UsageError(
      `${targets.length} projects need at least ${targets.length * 2} requests, more than the run's cap of ${cap} (--max-requests); check fewer projects at once or raise --max-requests`,
    );
  }
  const limit = pLimit(concurrency);
  type Result = { projectId: number; evaluation?: Evaluation; error?: string; notes?: string[] };
  const results = await Promise.all(
    targets.map(({ projectId, config }) =>
      limit(async (): Promise<Result> => {
        try {
          const r = await checkProject(ep, { projectId, product, config, now, ...(asOf ? { asOf } : {}) });
          // refunds and days answered twice are kept in the figures: say so beside the verdict
          const notes = dataNotes(r.consumption);
          return { projectId, evaluation: r.evaluation, ...(notes.length > 0 ? { notes } : {}) };
        } catch (error) {
          if (isConfigError(error)) throw error;
          return { projectId, error: error instanceof Error ? error.message : String(error) };
        }
      }),
    ),
  );
  const failed = results.some((r) => r.evaluation?.verdict === "fail");
  const unreachable = results.some((r) => r.error !== undefined);
  // a project with nothing judged has no verdict, and then the run has none either: never a PASS
  const unjudged = results.some((r) => r.evaluation?.verdict === "none");
  const verdict = failed ? "fail" : unreachable ? "unknown" : unjudged ? "none" : "pass";
  if (json) {
    process.stdout.write(
      `${safeJson({ verdict, checkedAt: now.toISOString(), ...(asOf ? { asOf } : {}), projects: results }, 2)}\n`,
    );
  } else {
    for (const r of results) {
      process.stdout.write(
        r.evaluation ? `${checkText(r.evaluation, r.notes)}\n` : `Project ${r.projectId}: UNKNOWN\n`,
      );
      if (r.error) process.stderr.write(`costgate: error: project ${r.projectId}: ${cleanText(r.error)}\n`);
    }
  }
  if (process.env["GITHUB_ACTIONS"] === "true") {
    for (const r of results) if (r.evaluation) process.stdout.write(checkAnnotations(r.evaluation));
  }
  for (const r of results) {
    if (r.evaluation?.verdict === "none")
      process.stderr.write(`costgate: project ${r.projectId}: ${verdictSentence(r.evaluation)}\n`);
  }
  const code = failed ? EXIT.violation : unreachable ? EXIT.api : unjudged ? EXIT.usage : EXIT.ok;
  return writeOutputs(
    code,
    summary ? [() => appendSummary(summary.path, summaryMarkdown(results), summary.flag)] : [],
  );
}
