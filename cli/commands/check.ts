/**
 * `costgate check`: the budget rules on live billing data, with an exit code for CI.
 * 0 every mandatory rule judged passes, 1 a mandatory rule fails, 2 bad usage or no verdict (no mandatory
 * rule could be judged), 3 billing unreachable.
 */
import pLimit from "p-limit";
import { parseProjectId } from "../../provider/billing/client";
import { addDays } from "../../provider/billing/periods";
import { parseProduct } from "../../provider/billing/products";
import {
  type BudgetConfig,
  configuredGates,
  mandatoryGates,
  parseBudgetConfig,
  RULE_NAMES,
  THRESHOLD_OF,
} from "../../provider/budget/config";
import { budgetPart, mergeBudget, projectsOf, readCostgateConfig } from "../../provider/budget/config-file";
import type { Evaluation, Level, RuleName } from "../../provider/budget/types";
import { noVerdictReason } from "../../provider/budget/verdict";
import { checkProject, parseAsOf } from "../../provider/check";
import { isConfigError } from "../../provider/errors";
import { cleanText, safeJson } from "../../provider/text";
import { EXIT, UsageError } from "../errors";
import { inputLimitFrom, writeOutputs } from "../files";
import { VERDICT_ICON } from "../report/markdown";
import {
  dataNotes,
  judged,
  reasonTexts,
  SHOWN_REASONS,
  statusWord,
  VERDICT_WORD,
  verdictSentence,
} from "../report/words";
import { appendSummary, summaryPathFrom } from "../summary";
import { billingEndpointFrom, projectAndProduct, runRequestCap } from "./billing";

type Opts = Record<string, string | boolean | string[] | undefined>;

function num(o: Opts, key: string, flag: string): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  // decimal only: Number() would also read 0x10 as 16 and 1e3 as 1000
  if (typeof v !== "string" || !/^\s*-?\d+(\.\d+)?\s*$/.test(v) || !Number.isFinite(n)) {
    throw new UsageError(`${flag}: "${String(v)}" is not a number; write it in decimal, e.g. ${flag} 45000`);
  }
  return n;
}

/** budgetConfigFrom turns flags into a validated BudgetConfig. */
export function budgetConfigFrom(o: Opts): BudgetConfig {
  const levels: Partial<Record<RuleName, Level>> = {};
  for (const entry of (o["level"] as string[] | undefined) ?? []) {
    const [rule = "", level = ""] = entry.split("=");
    if (!(RULE_NAMES as readonly string[]).includes(rule)) {
      throw new UsageError(
        `--level: "${rule}" is not a rule; the rules are ${RULE_NAMES.join(", ")} (e.g. --level daily-spike=mandatory)`,
      );
    }
    if (!LEVELS.includes(level)) {
      throw new UsageError(
        `--level: "${level}" is not a level for ${rule}; use mandatory, advisory or disabled (e.g. --level ${rule}=advisory)`,
      );
    }
    levels[rule as RuleName] = level as Level;
  }
  const config: BudgetConfig = {
    minBalance: num(o, "minBalance", "--min-balance"),
    includeBonuses: o["includeBonuses"] === true ? true : undefined,
    monthlyBudget: num(o, "monthlyBudget", "--monthly-budget"),
    minRunwayDays: num(o, "minRunwayDays", "--min-runway-days"),
    spikeFactor: num(o, "spikeFactor", "--spike-factor"),
    quantile: typeof o["quantile"] === "string" ? (o["quantile"] as BudgetConfig["quantile"]) : undefined,
    levels: Object.keys(levels).length ? levels : undefined,
  };
  const clean = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as BudgetConfig;
  try {
    parseBudgetConfig(clean);
  } catch (e) {
    if (isConfigError(e)) {
      const flag = `--${e.field.replace(/^levels\./, "level ").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      throw new UsageError(`${flag}: ${e.message.slice(e.field.length + 2)}`);
    }
    throw e;
  }
  return clean;
}

const LEVELS = ["mandatory", "advisory", "disabled"];

/** The flag of each setting, for messages. */
const FLAG_OF: Record<string, string> = {
  minBalance: "--min-balance",
  monthlyBudget: "--monthly-budget",
  minRunwayDays: "--min-runway-days",
  spikeFactor: "--spike-factor",
};

/**
 * requireGate refuses, before any request, a configuration that gates nothing: with no threshold set
 * (or every one disabled, or every one advisory) no mandatory rule can be judged and the check would have
 * no verdict whatever the project spends.
 */
export function requireGate(config: BudgetConfig, projectId?: number): void {
  if (mandatoryGates(config).length > 0) return;
  const project = projectId === undefined ? "" : ` for project ${projectId}`;
  if (configuredGates(config).length > 0) {
    throw new UsageError(
      `no mandatory budget rule is set${project}: advisory rules warn but never gate, so the gate would have no verdict; make one mandatory (e.g. --level ${configuredGates(config)[0]}=mandatory)`,
    );
  }
  throw new UsageError(
    `no budget threshold is set${project}, so the gate would pass whatever the project spends: give at least one of --min-balance, --monthly-budget or --min-runway-days (or minBalance, monthlyBudget, minRunwayDays in --config)`,
  );
}

function projectIds(o: Opts): number[] {
  const { projectId: raw, projectIdFrom } = projectAndProduct({
    projectId: o["projectId"] as string | undefined,
  });
  const ids = raw === undefined ? [undefined] : raw.split(",");
  return [...new Set(ids.map((v) => parseProjectId(v, projectIdFrom)))];
}

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
      ? `not configured; set ${FLAG_OF[THRESHOLD_OF[f.rule as keyof typeof THRESHOLD_OF]] ?? "its threshold"} to check it`
      : f.message;
    lines.push(`  ${statusWord(f).padEnd(11)}${`${f.rule} (${f.level})`.padEnd(29)}${message}`);
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

/** targetsFrom lists the projects to check with their thresholds: the config file, then flags over it. */
export function targetsFrom(o: Opts): { projectId: number; config: BudgetConfig }[] {
  const flags = budgetConfigFrom(o);
  const file =
    typeof o["config"] === "string" ? readCostgateConfig(o["config"], inputLimitFrom(o)) : undefined;
  const given = o["projectId"] as string | undefined;
  let targets: { projectId: number; config: BudgetConfig }[];
  if (file && given === undefined) {
    targets = projectsOf(file);
    if (targets.length === 0) {
      throw new UsageError(
        `--config ${String(o["config"])}: names no project; add projectId (or projects) to it, or give --project-id or COSTGATE_PROJECT_ID`,
      );
    }
  } else {
    // --project-id (or COSTGATE_PROJECT_ID) names the projects; the file gives their thresholds
    const base = file ? budgetPart(file) : {};
    const own = new Map(file?.projects?.map((p) => [p.projectId, mergeBudget(base, budgetPart(p))]));
    targets = projectIds(o).map((projectId) => ({ projectId, config: own.get(projectId) ?? base }));
  }
  return targets.map((t) => {
    const config = mergeBudget(t.config, flags);
    try {
      parseBudgetConfig(config);
    } catch (e) {
      if (isConfigError(e)) throw new UsageError(`project ${t.projectId}: ${e.message}`);
      throw e;
    }
    requireGate(config, targets.length > 1 ? t.projectId : undefined);
    return { projectId: t.projectId, config };
  });
}

/**
 * annotations are GitHub Actions' workflow commands: an error for a failed mandatory rule, a warning for a
 * failed advisory one, and an error for a project with no verdict (nothing mandatory was judged).
 */
function annotations(e: Evaluation): string {
  const encode = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const none =
    e.verdict === "none"
      ? `::error title=costgate (project ${e.projectId})::${encode(`${VERDICT_WORD.none}: ${noVerdictReason(e)}`)}\n`
      : "";
  return (
    none +
    e.findings
      .filter((f) => f.status === "fail")
      .map(
        (f) =>
          `::${f.level === "mandatory" ? "error" : "warning"} title=costgate ${f.rule} (project ${e.projectId})::${encode(f.message)}\n`,
      )
      .join("")
  );
}

/** summaryMarkdown is the check as Markdown for GITHUB_STEP_SUMMARY: one table per project. */
function summaryMarkdown(
  results: { projectId: number; evaluation?: Evaluation; error?: string; notes?: string[] }[],
): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
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
      "| Rule | Level | Result | Message |",
      "| --- | --- | --- | --- |",
      ...e.findings.map((f) => `| \`${f.rule}\` | ${f.level} | ${statusWord(f)} | ${cell(f.message)} |`),
      "",
      ...(r.notes ?? []).map((n) => `Note: ${cell(n)}\n`),
    );
  }
  return `${out.join("\n")}\n`;
}

export async function checkCommand(o: Opts): Promise<number> {
  const targets = targetsFrom(o);
  const product = parseProduct(
    (o["product"] as string | undefined) ??
      (typeof o["config"] === "string"
        ? readCostgateConfig(o["config"], inputLimitFrom(o)).product
        : undefined) ??
      projectAndProduct({}).product,
    o["product"] !== undefined
      ? "--product"
      : process.env["COSTGATE_PRODUCT"]
        ? "COSTGATE_PRODUCT"
        : "product",
  );
  // under GitHub Actions the step summary is where verdicts are read: used unless --summary names a file
  const summaryFlag = typeof o["summary"] === "string" ? "--summary" : "GITHUB_STEP_SUMMARY";
  const summary = summaryPathFrom(
    typeof o["summary"] === "string"
      ? o["summary"]
      : process.env["GITHUB_ACTIONS"] === "true" && process.env["GITHUB_STEP_SUMMARY"]
        ? process.env["GITHUB_STEP_SUMMARY"]
        : undefined,
    summaryFlag,
  );
  const concurrency = num(o, "concurrency", "--concurrency") ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError("--concurrency: must be a whole number, 1 or more");
  const ep = billingEndpointFrom(o as Record<string, string>);
  // two requests a project at least (balance, charges): a list the run's cap cannot cover is refused
  // before the first request rather than cut off in the middle
  const cap = runRequestCap(o as Record<string, string>);
  if (targets.length * 2 > cap) {
    throw new UsageError(
      `${targets.length} projects need at least ${targets.length * 2} requests, more than the run's cap of ${cap} (--max-requests); check fewer projects at once or raise --max-requests`,
    );
  }
  const now = new Date();
  const asOf = typeof o["asOf"] === "string" ? parseAsOf(o["asOf"], "--as-of", now) : undefined;
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
  if (o["json"]) {
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
    for (const r of results) if (r.evaluation) process.stdout.write(annotations(r.evaluation));
  }
  for (const r of results) {
    if (r.evaluation?.verdict === "none")
      process.stderr.write(`costgate: project ${r.projectId}: ${verdictSentence(r.evaluation)}\n`);
  }
  const code = failed ? EXIT.violation : unreachable ? EXIT.api : unjudged ? EXIT.usage : EXIT.ok;
  return writeOutputs(
    code,
    summary ? [() => appendSummary(summary, summaryMarkdown(results), summaryFlag)] : [],
  );
}
