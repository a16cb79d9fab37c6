/**
 * `costgate cost --preview FILE`: what a `pulumi preview --json` costs per month — every step priced from
 * its old and new inputs with the rate card — its effect on this month and on the runway, and gates on
 * the change. 0 pass (or no gate set), 1 a gate failed, 2 bad usage or a bad preview, 3 billing refused.
 */
import Big from "big.js";
import type { Evaluation, ForecastFigures } from "../../provider/budget/types";
import { hoursLeftInMonth } from "../../provider/calendar";
import type { DataFileLimit } from "../../provider/data-file";
import { readBounded, readStreamBounded } from "../../provider/files";
import { formatMoney as money } from "../../provider/money";
import { type PreviewCost, priceDigest } from "../../provider/preview/cost";
import { parseDigest } from "../../provider/preview/digest";
import { type GateFinding, judgeChange, nameOf, shown } from "../../provider/preview/gates";
import { safeJson } from "../../provider/text";
import { plural } from "../../provider/words";
import { EXIT, UsageError } from "../errors";
import { writeOutputs } from "../files";
import { flag } from "../names";
import type { CostOptions } from "../options/cost";
import { cell, findingLine, findingsTable } from "../report/findings";
import { appendSummary } from "../summary";

/** A gate on the change and how it came out: a finding, with `gate` naming it as before. */
export interface CostGate extends GateFinding {
  gate: string;
}

/** The forecast before and after the change, when a project and billing are given. */
export interface CostForecast {
  projectId: number;
  before: Pick<ForecastFigures, "monthEnd" | "runwayDays">;
  after: Pick<ForecastFigures, "monthEnd" | "runwayDays">;
  /** The budget rules judged after the change (the change's daily cost added). */
  evaluation: Evaluation;
}

/** What `costgate cost --json` prints. */
export interface CostResult extends PreviewCost {
  /** This month's extra spend, pro-rated from now to the month's end (hours left ÷ 730). */
  thisMonth: { extra: number; hoursLeft: number; monthEnd: string };
  forecast: CostForecast | null;
  gates: CostGate[];
  /** `fail` when a mandatory gate failed, `pass` when gates were set and none failed, `none` without a gate. */
  verdict: "pass" | "fail" | "none";
}

/**
 * readPreview reads the digest from a file or, with "-", from standard input (never a terminal): at most
 * `limit.maxBytes` (64 MiB unless --max-input-size or COSTGATE_MAX_INPUT_SIZE says), a file measured
 * before it is read, standard input read no further than the cap.
 */
async function readPreview(
  arg: string | undefined,
  limit: DataFileLimit,
): Promise<{ text: string; source: string }> {
  if (typeof arg !== "string" || arg.trim() === "")
    throw new UsageError(
      "--preview: missing; give the file `pulumi preview --json` wrote, or - to read it from standard input",
    );
  const bounds = { field: "--preview", kind: "preview" as const, ...limit };
  if (arg === "-") {
    if (process.stdin.isTTY)
      throw new UsageError(
        "--preview -: standard input is a terminal; pipe the preview in: pulumi preview --json | costgate cost --preview -",
      );
    return { text: await readStreamBounded(process.stdin, bounds), source: "standard input" };
  }
  return { text: readBounded(arg, bounds), source: arg };
}

const signed = (n: number) => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${money(Math.abs(n))}`;

/**
 * costCommand prices the preview, judges the gates and prints the result (terminal, --json or
 * --markdown), appending Markdown to --summary.
 */
export async function costCommand(o: CostOptions): Promise<number> {
  const { now, card, target, product, summary } = o;
  // the billing client and the rules are required only when a project is priced against its billing:
  // a preview priced alone loads neither (~35 modules)
  const ep = o.endpoint
    ? (require("../options/billing") as typeof import("../options/billing")).billingEndpoint(o.endpoint)
    : undefined;

  // everything is checked: now the preview
  const { text, source } = await readPreview(o.preview, o.limit);
  const cost = priceDigest(parseDigest(text, source, flag("preview")), card);
  const { hours, monthEnd } = hoursLeftInMonth(now);
  const perDay = new Big(cost.totals.monthlyDelta).times(12).div(365);
  const result: CostResult = {
    ...cost,
    thisMonth: {
      extra: Number(
        new Big(cost.totals.monthlyDelta).times(hours).div(730).round(2, Big.roundHalfUp).toFixed(2),
      ),
      hoursLeft: Math.round(hours * 10) / 10,
      monthEnd,
    },
    forecast: null,
    gates: [],
    verdict: "none",
  };

  if (target && ep) {
    const { evaluateData, fetchProjectData } =
      require("../../provider/check") as typeof import("../../provider/check");
    const data = await fetchProjectData(ep, {
      projectId: target.projectId,
      product,
      config: target.config,
      now,
    });
    const extra = target.config.extraDailyCost ?? 0;
    const beforeE = evaluateData(data, target.projectId, now, target.config);
    const afterE = evaluateData(data, target.projectId, now, {
      ...target.config,
      extraDailyCost: extra + perDay.toNumber(),
    });
    const pick = (f: ForecastFigures) => ({ monthEnd: f.monthEnd, runwayDays: f.runwayDays });
    result.forecast = {
      projectId: target.projectId,
      before: pick(beforeE.figures.forecast),
      after: pick(afterE.figures.forecast),
      evaluation: afterE,
    };
  }
  const judged = judgeChange(
    cost,
    o.gates,
    result.forecast && target ? { evaluation: result.forecast.evaluation, config: target.config } : undefined,
  );
  result.gates = judged.findings.map((f) => ({ gate: f.rule, ...f }));
  result.verdict = judged.verdict;
  const delta = cost.totals.monthlyDelta;

  const quiet = o.quietBelow !== undefined && Math.abs(delta) < o.quietBelow && result.verdict !== "fail";
  if (o.format === "json") process.stdout.write(`${safeJson(result, 2)}\n`);
  else if (o.format === "markdown") process.stdout.write(quiet ? "" : costMarkdown(result));
  else process.stdout.write(costText(result));
  const code = result.verdict === "fail" ? EXIT.violation : EXIT.ok;
  return writeOutputs(code, summary && !quiet ? [() => appendSummary(summary, costMarkdown(result))] : []);
}

function forecastLines(r: CostResult): string[] {
  const f = r.forecast;
  const out = [
    `This month: ${signed(r.thisMonth.extra)} to ${r.thisMonth.monthEnd}, pro-rated over the ${r.thisMonth.hoursLeft} hours left.`,
  ];
  if (!f) return out;
  const m = (q: ForecastFigures["monthEnd"]) =>
    q ? `${money(q.p50)} (p80 ${money(q.p80)})` : "no forecast yet";
  const d = (q: ForecastFigures["runwayDays"]) =>
    q
      ? `${q.p80 >= 1e6 ? "∞" : q.p80.toFixed(1)} days at p80 (median ${q.p50 >= 1e6 ? "∞" : q.p50.toFixed(1)})`
      : "not known";
  out.push(
    `Project ${f.projectId}, month end: ${m(f.before.monthEnd)} before, ${m(f.after.monthEnd)} after the change.`,
    `Runway: ${d(f.before.runwayDays)} before, ${d(f.after.runwayDays)} after.`,
  );
  return out;
}

/** costText is the terminal rendering: changed resources, totals, the month and the gates. */
export function costText(r: CostResult): string {
  const cur = r.currency ? ` ${shown(r.currency)}` : "";
  const changed = r.resources.filter((x) => x.op !== "same");
  const lines = [
    `costgate cost · ${r.resources.length + r.unpriced.length} resources priced or named${cur ? `, amounts in${cur}` : ""}, per month`,
    "",
  ];
  const w = Math.max(8, ...changed.map((x) => nameOf(x.urn).length));
  for (const x of changed)
    lines.push(
      `  ${x.op.padEnd(8)} ${nameOf(x.urn).padEnd(w)} ${money(x.monthlyBefore).padStart(10)} → ${money(x.monthlyAfter).padStart(10)}  ${signed(x.monthlyDelta).padStart(11)}  ${shown(x.pricedBy)}`,
    );
  const same = r.resources.length - changed.length;
  if (same > 0) lines.push(`  ${plural(same, "unchanged resource")} priced for the total`);
  for (const u of r.unpriced)
    lines.push(`  UNPRICED ${nameOf(u.urn)} (${shown(u.type)}, ${u.op}): ${shown(u.reason)}`);
  lines.push(
    "",
    `Total: ${money(r.totals.monthlyBefore)} → ${money(r.totals.monthlyAfter)} a month (${signed(r.totals.monthlyDelta)})`,
    ...forecastLines(r),
  );
  if (r.gates.length) {
    lines.push("");
    for (const g of r.gates) lines.push(findingLine(g));
  }
  lines.push("", verdictLine(r));
  return `${lines.join("\n")}\n`;
}

function verdictLine(r: CostResult): string {
  if (r.verdict === "none")
    return "NO VERDICT: no gate is set (--max-monthly-increase, --max-increase-percent, --fail-on-unpriced, or a budget threshold with --project-id)";
  const failed = r.gates.filter((g) => g.level === "mandatory" && g.status === "fail").length;
  return r.verdict === "pass"
    ? "PASS: no mandatory gate failed"
    : `FAIL: ${failed} mandatory gate${failed === 1 ? "" : "s"} failed`;
}

/** costMarkdown is the pull-request comment: changed resources, totals, verdicts, unchanged ones folded. */
export function costMarkdown(r: CostResult): string {
  const icon = r.verdict === "fail" ? "❌" : r.verdict === "pass" ? "✅" : "💰";
  const changed = r.resources.filter((x) => x.op !== "same");
  const same = r.resources.filter((x) => x.op === "same");
  const row = (x: (typeof r.resources)[number]) =>
    `| \`${cell(nameOf(x.urn))}\` | ${cell(x.type)} | ${x.op} | ${money(x.monthlyBefore)} | ${money(x.monthlyAfter)} | ${signed(x.monthlyDelta)} | ${cell(x.pricedBy)} |`;
  const head = [
    "| Resource | Type | Operation | Before | After | Delta | Priced by |",
    "| --- | --- | --- | ---: | ---: | ---: | --- |",
  ];
  const out = [
    `### ${icon} costgate cost: ${signed(r.totals.monthlyDelta)} a month${r.currency ? ` (${cell(r.currency)})` : ""} — ${cell(verdictLine(r))}`,
    "",
    `**Total per month:** ${money(r.totals.monthlyBefore)} → ${money(r.totals.monthlyAfter)} (${signed(r.totals.monthlyDelta)}).`,
    ...forecastLines(r).map(cell),
    "",
  ];
  if (changed.length) out.push(...head, ...changed.map(row), "");
  else out.push("No priced resource changes.", "");
  if (r.unpriced.length)
    out.push(
      "**Unpriced** (not in the totals):",
      "",
      ...r.unpriced.map((u) => `- \`${cell(nameOf(u.urn))}\` (${cell(u.type)}, ${u.op}): ${cell(u.reason)}`),
      "",
    );
  if (r.gates.length) out.push(...findingsTable(r.gates, { first: "rule", name: "Gate" }), "");
  if (same.length)
    out.push(
      `<details><summary>Unchanged resources (${same.length})</summary>`,
      "",
      ...head,
      ...same.map(row),
      "",
      "</details>",
      "",
    );
  return `${out.join("\n")}\n`;
}
