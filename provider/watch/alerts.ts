/**
 * Alerts that fire once: what changed between the last judgement of a project and this one. Pure: the
 * state in, the state and the notifications out; no I/O, the clock injected.
 *
 * A rule fires when its finding goes to `fail` (from `pass`, or from nothing known) and resolves once
 * when it passes again, or stops being judged on purpose (its threshold removed, its level `disabled`).
 * A rule that cannot be judged this time (`not-judged`) keeps its state. Reads that keep failing are an
 * alert of their own, rule `read-errors`, never a rule failure: a rule's state is kept while its
 * project cannot be read.
 */
import type { Evaluation, FigureValue, Level } from "../budget/types";

/** The rule of the alert raised when a project's reads keep failing. */
export const READ_ERRORS_RULE = "read-errors";

/** Consecutive failed reads of a project after which {@link READ_ERRORS_RULE} fires. */
export const READ_ERRORS_AFTER = 3;

/** What is firing for one project and rule. */
export interface FiringEntry {
  project: number;
  rule: string;
  level: Level;
  /** When it began to fire, ISO. */
  since: string;
}

/** The alerting part of the watch state: what fires, and each project's run of failed reads. */
export interface AlertState {
  /** Keyed by {@link alertKey}. */
  firing: Record<string, FiringEntry>;
  /** Consecutive failed reads per project id (absent: the last read succeeded). */
  readErrors: Record<string, number>;
}

/**
 * Notification is one alert, as the webhook receives it: `firing` when a rule goes from pass to fail,
 * `resolved` once when it recovers. `id` is unique and stays the same on every retry, so a receiver
 * can drop a repeat.
 */
export interface Notification {
  id: string;
  status: "firing" | "resolved";
  project: number;
  product: string;
  rule: string;
  level: Level;
  message: string;
  figures: Record<string, FigureValue>;
  /** When the change was seen, ISO. */
  at: string;
}

/** alertKey names one project's rule in {@link AlertState.firing}. */
export function alertKey(project: number, rule: string): string {
  return `${project}/${rule}`;
}

/** emptyAlertState is the state of a watch that has seen nothing. */
export function emptyAlertState(): AlertState {
  return { firing: {}, readErrors: {} };
}

/** What one project's read gave: its evaluation, or the error's message. */
export type ReadOutcome = { ok: true; evaluation: Evaluation } | { ok: false; error: string };

/**
 * judgeAlerts applies one project's read to the state (in place) and returns the notifications due.
 * `newId` makes each notification's id.
 *
 * @example
 * const due = judgeAlerts(state, 4242, "openstack", { ok: true, evaluation }, now, randomUUID);
 */
export function judgeAlerts(
  state: AlertState,
  project: number,
  product: string,
  outcome: ReadOutcome,
  now: Date,
  newId: () => string,
): Notification[] {
  const at = now.toISOString();
  const out: Notification[] = [];
  const note = (
    status: Notification["status"],
    rule: string,
    level: Level,
    message: string,
    figures: Record<string, FigureValue>,
  ) => out.push({ id: newId(), status, project, product, rule, level, message, figures, at });
  const readKey = alertKey(project, READ_ERRORS_RULE);
  if (!outcome.ok) {
    const count = (state.readErrors[String(project)] ?? 0) + 1;
    state.readErrors[String(project)] = count;
    if (count >= READ_ERRORS_AFTER && !state.firing[readKey]) {
      state.firing[readKey] = { project, rule: READ_ERRORS_RULE, level: "advisory", since: at };
      note(
        "firing",
        READ_ERRORS_RULE,
        "advisory",
        `Project ${project}'s billing data could not be read ${count} times in a row: ${outcome.error}`,
        { consecutiveErrors: count },
      );
    }
    return out;
  }
  delete state.readErrors[String(project)];
  if (state.firing[readKey]) {
    delete state.firing[readKey];
    note("resolved", READ_ERRORS_RULE, "advisory", `Project ${project}'s billing data is read again.`, {});
  }
  for (const f of outcome.evaluation.findings) {
    const key = alertKey(project, f.rule);
    const firing = state.firing[key];
    if (f.status === "fail" && !firing) {
      state.firing[key] = { project, rule: f.rule, level: f.level, since: at };
      note("firing", f.rule, f.level, f.message, f.figures);
    } else if (firing && (f.status === "pass" || f.status === "skip" || f.status === "not-configured")) {
      delete state.firing[key];
      note("resolved", f.rule, firing.level, f.message, f.figures);
    }
  }
  return out;
}
