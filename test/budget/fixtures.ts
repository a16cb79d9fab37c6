/**
 * Builders for budget tests: a fixed clock, daily series and one "happy path" project.
 *
 * The happy path: project 4242 on 2026-11-21 at 09:30 UTC (November: 30 days, 9 left after today),
 * 1,000.00 a day from 2026-10-25 to 2026-11-20 and 300.00 so far today, a balance of 12,400.00.
 * Trailing average 1,000.00; month to date 20,300.00; forecast 29,300.00; runway 12.4 days.
 */
import type { BudgetInput, DailyCharge, Finding, RuleName } from "../../provider/budget";
import { evaluate } from "../../provider/budget";

export const NOW = new Date("2026-11-21T09:30:00Z");

/** day shifts a `YYYY-MM-DD` by whole days. */
export function day(base: string, offset = 0): string {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

/** daily builds consecutive charges starting at `from`; a `null` amount leaves a gap. */
export function daily(from: string, amounts: ReadonlyArray<number | null>): DailyCharge[] {
  return amounts.flatMap((a, i) =>
    a === null ? [] : [{ day: day(from, i), totalAmount: a, totalBonuses: 0 }],
  );
}

/** daysBefore builds charges for the days just before `today`: the last amount is yesterday's. */
export function daysBefore(today: string, amounts: ReadonlyArray<number | null>): DailyCharge[] {
  return daily(day(today, -amounts.length), amounts);
}

/** happy is the happy-path input with some fields changed. */
export function happy(change: Partial<BudgetInput> = {}): BudgetInput {
  return {
    projectId: 4242,
    balance: 12400,
    bonuses: 0,
    consumption: [...daily("2026-10-25", Array(27).fill(1000)), ...daily("2026-11-21", [300])],
    now: NOW,
    ...change,
  };
}

/** finding runs `evaluate` and returns one rule's finding. */
export function finding(rule: RuleName, ...args: Parameters<typeof evaluate>): Finding {
  const f = evaluate(...args).findings.find((x) => x.rule === rule);
  if (!f) throw new Error(`no ${rule} finding`);
  return f;
}
