/**
 * `costgate report`: a project's balance, daily spend against the budget, forecast, runway and rule
 * verdicts — in the terminal, as Markdown, JSON, or a self-contained HTML file.
 */
import { parseProjectId } from "../../provider/billing/client";
import { parseProduct } from "../../provider/billing/products";
import type { BudgetConfig } from "../../provider/budget/config";
import { budgetPart, mergeBudget, projectsOf, readCostgateConfig } from "../../provider/budget/config-file";
import { dayStartOf, parseAsOf } from "../../provider/check";
import { EXIT, UsageError } from "../errors";
import { inputLimitFrom, writeOutputs } from "../files";
import { useColor } from "../report/colors";
import { fetchReport } from "../report/fetch";
import { budgetFromFlags, formatFromFlags, htmlPathFromFlags, periodFromFlags } from "../report/flags";
import { renderMarkdown } from "../report/markdown";
import { emitReport } from "../report/output";
import { startProgress } from "../report/progress";
import { verdictSentence } from "../report/words";
import { appendSummary, summaryPathFrom } from "../summary";
import { billingEndpointFrom, projectAndProduct } from "./billing";
import { requireGate } from "./check";

type Opts = Record<string, string | boolean | undefined>;

/**
 * reportCommand checks every flag, then reads the balance and the charges and writes the report.
 * It exits 0 whatever the verdict, unless --gate asks for check's exit codes (1 a mandatory rule failed,
 * 2 no verdict). With no mandatory rule judged the report says NO VERDICT (never PASS).
 */
export async function reportCommand(o: Opts): Promise<number> {
  const clock = new Date();
  const asOf = typeof o["asOf"] === "string" ? parseAsOf(o["asOf"], "--as-of", clock) : undefined;
  // a replay runs at 00:00 UTC of its day
  const now = asOf ? dayStartOf(asOf) : clock;
  const format = formatFromFlags(o);
  const file =
    typeof o["config"] === "string" ? readCostgateConfig(o["config"], inputLimitFrom(o)) : undefined;
  const { projectId, product, projectIdFrom, productFrom } = projectAndProduct({
    ...o,
    product:
      (o["product"] as string | undefined) ??
      (file?.product === undefined ? undefined : String(file.product)),
  });
  let fromFile: { projectId: number; config: BudgetConfig } | undefined;
  if (file) {
    const listed = projectsOf(file);
    if (projectId === undefined && listed.length > 1) {
      throw new UsageError(
        `--config ${String(o["config"])}: lists ${listed.length} projects; name the one to report with --project-id`,
      );
    }
    const id = projectId === undefined ? listed[0]?.projectId : parseProjectId(projectId, projectIdFrom);
    if (id !== undefined)
      fromFile = listed.find((t) => t.projectId === id) ?? { projectId: id, config: budgetPart(file) };
  }
  const q = {
    projectId: fromFile?.projectId ?? parseProjectId(projectId, projectIdFrom),
    product: parseProduct(
      product,
      o["product"] === undefined && file?.product !== undefined ? "product" : productFrom,
    ),
    ...periodFromFlags(o, now, asOf),
  };
  const config = mergeBudget(fromFile?.config ?? {}, budgetFromFlags(o));
  // asked for a verdict: a report with no threshold would be a green gate that checks nothing
  if (o["gate"]) requireGate(config);
  const html = htmlPathFromFlags(o);
  const summary = summaryPathFrom(typeof o["summary"] === "string" ? o["summary"] : undefined);
  const ep = billingEndpointFrom(o);

  const progress = startProgress("charges", "requests");
  let report: Awaited<ReturnType<typeof fetchReport>>;
  try {
    const currency = (o["currency"] as string | undefined) ?? file?.currency;
    report = await fetchReport(ep, q, config, {
      now,
      onWindow: (d, t) => progress?.update(d, t),
      currency: currency?.trim() || undefined,
      asOf,
    });
  } finally {
    progress?.stop();
  }
  // the gate's verdict first: a report or summary that cannot be written never hides a failing gate
  const verdict = report.evaluation.verdict;
  const code = !o["gate"]
    ? EXIT.ok
    : verdict === "fail"
      ? EXIT.violation
      : verdict === "none"
        ? EXIT.usage
        : EXIT.ok;
  if (o["gate"] && verdict === "none")
    process.stderr.write(`costgate: ${verdictSentence(report.evaluation)}\n`);
  return writeOutputs(code, [
    () =>
      emitReport(report, {
        format,
        html,
        color: useColor(process.stdout),
        out: (s) => process.stdout.write(s),
      }),
    ...(summary ? [() => appendSummary(summary, renderMarkdown(report))] : []),
  ]);
}
