/**
 * `costgate report`: a project's balance, daily spend against the budget, forecast, runway and rule
 * verdicts — in the terminal, as Markdown, JSON, or a self-contained HTML file.
 */
import { EXIT } from "../errors";
import { writeOutputs } from "../files";
import type { ReportOptions } from "../options";
import { billingEndpoint } from "../options/billing";
import { useColor } from "../report/colors";
import { fetchReport } from "../report/fetch";
import { renderMarkdown } from "../report/markdown";
import { emitReport } from "../report/output";
import { startProgress } from "../report/progress";
import { verdictSentence } from "../report/words";
import { appendSummary } from "../summary";

/**
 * reportCommand checks every flag, then reads the balance and the charges and writes the report.
 * It exits 0 whatever the verdict, unless --gate asks for check's exit codes (1 a mandatory rule failed,
 * 2 no verdict). With no mandatory rule judged the report says NO VERDICT (never PASS).
 */
export async function reportCommand(o: ReportOptions): Promise<number> {
  const { target, product, period, now, asOf, format, gate, html, summary, currency } = o;
  const { projectId, config } = target;
  const q = { projectId, product, ...period };
  const ep = billingEndpoint(o.endpoint);

  const progress = startProgress("charges", "requests");
  let report: Awaited<ReturnType<typeof fetchReport>>;
  try {
    report = await fetchReport(ep, q, config, {
      now,
      onWindow: (d, t) => progress?.update(d, t),
      currency,
      asOf,
    });
  } finally {
    progress?.stop();
  }
  // the gate's verdict first: a report or summary that cannot be written never hides a failing gate
  const verdict = report.evaluation.verdict;
  const code = !gate
    ? EXIT.ok
    : verdict === "fail"
      ? EXIT.violation
      : verdict === "none"
        ? EXIT.usage
        : EXIT.ok;
  if (gate && verdict === "none") process.stderr.write(`costgate: ${verdictSentence(report.evaluation)}\n`);
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
