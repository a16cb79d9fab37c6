/**
 * `costgate report`: a project's balance, daily spend against the budget, forecast, runway and rule
 * verdicts — in the terminal, as Markdown, JSON, or a self-contained HTML file.
 */
import { parseProjectId } from "../../provider/billing/client";
import { parseProduct } from "../../provider/billing/products";
import { EXIT } from "../errors";
import { useColor } from "../report/colors";
import { fetchReport } from "../report/fetch";
import { budgetFromFlags, formatFromFlags, htmlPathFromFlags, periodFromFlags } from "../report/flags";
import { emitReport } from "../report/output";
import { startProgress } from "../report/progress";
import { billingEndpointFrom, projectAndProduct } from "./billing";
import { requireGate } from "./check";

type Opts = Record<string, string | boolean | undefined>;

/**
 * reportCommand checks every flag, then reads the balance and the charges and writes the report.
 * It exits 0 whatever the verdict, unless --gate asks for check's exit codes. Without a threshold the
 * report says it has no verdict (never PASS).
 */
export async function reportCommand(o: Opts): Promise<number> {
  const now = new Date();
  const format = formatFromFlags(o);
  const { projectId, product } = projectAndProduct(o);
  const q = {
    projectId: parseProjectId(projectId, "--project-id"),
    product: parseProduct(product, "--product"),
    ...periodFromFlags(o, now),
  };
  const config = budgetFromFlags(o);
  // asked for a verdict: a report with no threshold would be a green gate that checks nothing
  if (o["gate"]) requireGate(config);
  const html = htmlPathFromFlags(o);
  const ep = billingEndpointFrom(o);

  const progress = startProgress("charges", "requests");
  let report: Awaited<ReturnType<typeof fetchReport>>;
  try {
    report = await fetchReport(ep, q, config, { now, onWindow: (d, t) => progress?.update(d, t) });
  } finally {
    progress?.stop();
  }
  emitReport(report, {
    format,
    html,
    color: useColor(process.stdout),
    out: (s) => process.stdout.write(s),
  });
  return o["gate"] && report.evaluation.verdict === "fail" ? EXIT.violation : EXIT.ok;
}
