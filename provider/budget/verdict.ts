/**
 * The verdict: one rule for every output (check, report, the pack), and the words for "no verdict".
 */
import type { Evaluation, Finding, Verdict } from "./types";

/**
 * verdictOf is the one rule every output gives a project's verdict by: `fail` when a `mandatory` finding
 * failed; `pass` when at least one `mandatory` finding was judged (`pass`) and none failed; `none` when
 * no mandatory rule was judged — nothing configured, every mandatory rule disabled, or none could be
 * judged (a replay reads no balance, too little data). An advisory rule can neither fail nor pass the
 * verdict, so it alone never makes it green.
 *
 * @example
 * verdictOf(evaluate(input, { minBalance: 5000 }).findings); // "pass" or "fail"
 * verdictOf(evaluate(input, {}).findings); // "none": no threshold, nothing judged
 */
export function verdictOf(findings: readonly Pick<Finding, "level" | "status">[]): Verdict {
  const mandatory = findings.filter((f) => f.level === "mandatory");
  if (mandatory.some((f) => f.status === "fail")) return "fail";
  return mandatory.some((f) => f.status === "pass") ? "pass" : "none";
}

/**
 * noVerdictReason says why an evaluation has no verdict, as a clause: "no budget threshold is set", "no
 * rule is mandatory ...", or "no mandatory rule could be judged: <each such rule's reason>".
 *
 * @example
 * `NO VERDICT: ${noVerdictReason(evaluation)}`;
 */
export function noVerdictReason(e: Pick<Evaluation, "findings">): string {
  const mandatory = e.findings.filter((f) => f.level === "mandatory");
  const notJudged = mandatory.filter((f) => f.status === "not-judged");
  if (notJudged.length > 0)
    return `no mandatory rule could be judged: ${notJudged.map((f) => f.message).join(" ")}`;
  const advisory = e.findings.some(
    (f) => f.level === "advisory" && f.rule !== "daily-spike" && f.status !== "not-configured",
  );
  if (advisory) return "no rule with a threshold is mandatory (advisory rules warn but never gate)";
  return "no budget threshold is set";
}
