/**
 * `costgate report`: a project's balance, daily spend against the budget, forecast, runway and rule
 * verdicts — in the terminal, as Markdown, JSON, or a self-contained HTML file.
 */
import type { Target } from "../../provider/budget/targets";
import { dayStartOf } from "../../provider/check";
import { EXIT } from "../errors";
import { writeOutputs } from "../files";
import { day, type Flags, requireGate, targetOptions, text } from "../options";
import { useColor } from "../report/colors";
import { fetchReport } from "../report/fetch";
import { formatFromFlags, htmlPathFromFlags, periodFromFlags } from "../report/flags";
import { renderMarkdown } from "../report/markdown";
import { emitReport } from "../report/output";
import { startProgress } from "../report/progress";
import { verdictSentence } from "../report/words";
import { appendSummary, summaryPathFrom } from "../summary";
import { billingEndpointFrom } from "./billing";

/**
 * reportCommand checks every flag, then reads the balance and the charges and writes the report.
 * It exits 0 whatever the verdict, unless --gate asks for check's exit codes (1 a mandatory rule failed,
 * 2 no verdict). With no mandatory rule judged the report says NO VERDICT (never PASS).
 */
export async function reportCommand(o: Flags): Promise<number> {
  const clock = new Date();
  const asOf = o["asOf"] === undefined ? undefined : day(o["asOf"], "--as-of", clock);
  // a replay runs at 00:00 UTC of its day
  const now = asOf ? dayStartOf(asOf) : clock;
  const format = formatFromFlags(o);
  const { file, product, targets } = targetOptions(o, { one: "to report" });
  const [{ projectId, config }] = targets as [Target];
  const q = { projectId, product, ...periodFromFlags(o, now, asOf) };
  // asked for a verdict: a report with no threshold would be a green gate that checks nothing
  if (o["gate"]) requireGate(config);
  const html = htmlPathFromFlags(o);
  const summary = summaryPathFrom(text(o, "summary"));
  const ep = billingEndpointFrom(o);

  const progress = startProgress("charges", "requests");
  let report: Awaited<ReturnType<typeof fetchReport>>;
  try {
    const currency = text(o, "currency") ?? file?.currency;
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
