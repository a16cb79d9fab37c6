/**
 * The gates on a change (`costgate cost`): decided here, rendered by the CLI. Each gate's outcome is a
 * finding shaped like the budget rules' (rule, level, status, message, figures), so that one renderer
 * serves both.
 */
import { type BudgetConfig, configuredGates } from "../budget/config";
import { formatMoney } from "../budget/money";
import type { Evaluation, FigureValue, RuleName } from "../budget/types";
import { cleanText } from "../text";
import { plural } from "../words";
import type { PreviewCost } from "./cost";

/** The gates on the change itself, beside the budget rules judged after it. */
export type ChangeGateName = "max-monthly-increase" | "max-increase-percent" | "unpriced";

/** A gate's outcome: a judged finding (a gate that could not be judged is not a gate). */
export interface GateFinding {
  rule: ChangeGateName | RuleName;
  level: "mandatory" | "advisory";
  status: "pass" | "fail";
  message: string;
  figures: Record<string, FigureValue>;
}

/** The thresholds of the change's gates; a gate not set is not judged. */
export interface ChangeGates {
  /** At most this much more a month (currency units). */
  maxMonthlyIncrease?: number;
  /** At most this many percent more a month than the priced resources cost before. */
  maxIncreasePercent?: number;
  /** Unpriced resources fail the change (mandatory) instead of warning (advisory). */
  failOnUnpriced?: boolean;
}

/** The budget rules judged after the change, and the thresholds they were judged by. */
export interface AfterChange {
  evaluation: Evaluation;
  config: BudgetConfig;
}

/**
 * judgeChange decides the gates on a priced change: the budget rules after it (only the configured ones
 * that were judged), then `maxMonthlyIncrease`, `maxIncreasePercent` and the unpriced resources. The
 * verdict is `fail` when a mandatory gate failed, `pass` when one was judged and none failed, `none`
 * without a mandatory gate.
 *
 * @example judgeChange(priceDigest(digest, card), { maxMonthlyIncrease: 500 }).verdict; // "pass"
 */
export function judgeChange(
  cost: PreviewCost,
  gates: ChangeGates,
  after?: AfterChange,
): { findings: GateFinding[]; verdict: "pass" | "fail" | "none" } {
  const findings: GateFinding[] = [];
  if (after) {
    const gated: string[] = configuredGates(after.config);
    for (const f of after.evaluation.findings) {
      // only a judged rule is a gate: one that could not be judged neither passes nor fails the change
      if (f.level === "disabled" || (f.status !== "pass" && f.status !== "fail") || !gated.includes(f.rule))
        continue;
      findings.push({
        rule: f.rule,
        level: f.level,
        status: f.status,
        message: f.message,
        figures: f.figures,
      });
    }
  }
  const { monthlyBefore: before, monthlyAfter, monthlyDelta: delta } = cost.totals;
  const { maxMonthlyIncrease: maxIncrease, maxIncreasePercent: maxPercent } = gates;
  if (maxIncrease !== undefined) {
    findings.push({
      rule: "max-monthly-increase",
      level: "mandatory",
      status: delta > maxIncrease ? "fail" : "pass",
      message: `The change ${delta >= 0 ? "adds" : "removes"} ${formatMoney(Math.abs(delta))} a month; at most ${formatMoney(maxIncrease)} more is allowed.`,
      figures: { monthlyDelta: delta, maxMonthlyIncrease: maxIncrease },
    });
  }
  if (maxPercent !== undefined) {
    const pct = before > 0 ? (delta / before) * 100 : delta > 0 ? Number.POSITIVE_INFINITY : 0;
    findings.push({
      rule: "max-increase-percent",
      level: "mandatory",
      status: pct > maxPercent ? "fail" : "pass",
      message:
        before > 0
          ? `The change moves the stack's priced resources from ${formatMoney(before)} to ${formatMoney(monthlyAfter)} a month (${pct >= 0 ? "+" : ""}${pct.toFixed(1)} %); at most +${maxPercent} % is allowed.`
          : `The stack's priced resources cost nothing before the change and ${formatMoney(monthlyAfter)} a month after it; at most +${maxPercent} % is allowed.`,
      // JSON-safe: an increase from nothing is null, not Infinity
      figures: { increasePercent: Number.isFinite(pct) ? pct : null, maxIncreasePercent: maxPercent },
    });
  }
  const unpriced = cost.unpriced;
  if (unpriced.length > 0) {
    findings.push({
      rule: "unpriced",
      level: gates.failOnUnpriced ? "mandatory" : "advisory",
      status: "fail",
      message: `${plural(unpriced.length, "resource")} could not be priced and ${unpriced.length === 1 ? "is" : "are"} not in the totals: ${unpriced.map((u) => `${nameOf(u.urn)} (${shown(u.reason)})`).join("; ")}.`,
      figures: { unpriced: unpriced.length },
    });
  } else if (gates.failOnUnpriced) {
    findings.push({
      rule: "unpriced",
      level: "mandatory",
      status: "pass",
      message: "Every resource was priced.",
      figures: { unpriced: 0 },
    });
  }
  const judged = findings.filter((g) => g.level === "mandatory");
  const verdict = judged.some((g) => g.status === "fail") ? "fail" : judged.length > 0 ? "pass" : "none";
  return { findings, verdict };
}

/** shown is a name, type or reason from the preview or the rate card as printed: one clean line. */
export const shown = (text: string): string => cleanText(text, { maxLength: 200 });
/** nameOf is a resource's name: the last part of its URN, as printed. */
export const nameOf = (urn: string): string => shown(urn.split("::").pop() ?? urn);
