/**
 * A charge on the month's last business day, end to end (issue 20, session 14): the billing endpoint serves a
 * history with one (a support contract billed on the last Monday–Friday: 31 October, Friday 28 November — the
 * 30th a Sunday — 31 December), and `costgate check --as-of` forecasts it on Friday 30 January (the 31st a
 * Saturday) and says so in every output — the words in text, `businessDay` and its next day in --json.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { addDays } from "../../provider/billing/periods";
import { emulatorBilling } from "../helpers/billed";
import { runCli } from "../helpers/cli";

const PROJECT = 9311;
const AS_OF = "2026-01-10";
const FROM = "2025-09-01";
/** The last Monday–Friday of a day's month. */
function lastBusinessDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  let last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  while (last.getUTCDay() === 0 || last.getUTCDay() === 6) last = new Date(last.getTime() - 86_400_000);
  return last.toISOString().slice(0, 10);
}
/** 100.00 a weekday, 30.00 a weekend day, and 900.00 more on the month's last business day. */
function bill(iso: string): number {
  const wd = new Date(`${iso}T00:00:00Z`).getUTCDay();
  return (wd === 0 || wd === 6 ? 30 : 100) + (lastBusinessDay(iso) === iso ? 900 : 0);
}
/** January's true total. */
const JANUARY = Array.from({ length: 31 }, (_, i) => bill(addDays("2026-01-01", i))).reduce(
  (a, b) => a + b,
  0,
);

let emu: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  ({ emu, env } = await emulatorBilling(PROJECT, FROM, AS_OF, bill));
});
afterAll(async () => {
  await emu?.close();
});

describe("costgate check on a charge billed on the month's last business day", () => {
  it("forecasts January's on Friday the 30th and words it in text and --json", async () => {
    const args = ["check", "--project-id", String(PROJECT), "--as-of", AS_OF, "--monthly-budget", "100000"];
    const json = await runCli([...args, "--json"], env);
    expect(json.code).toBe(0);
    const forecast = JSON.parse(json.stdout).projects[0].evaluation.figures.forecast;
    expect(forecast.reasons).toContainEqual({
      kind: "day-of-month",
      dayOfMonth: 30,
      amount: 900,
      businessDay: "last",
      text: "a charge of about 900.00 recurs on the last business day of each month (Monday–Friday; next on the 30th) and is forecast there",
    });
    expect(Math.abs(forecast.monthEnd.p50 / JANUARY - 1)).toBeLessThan(0.03);
    const text = await runCli(args, env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      "recurs on the last business day of each month (Monday–Friday; next on the 30th)",
    );
  });
});
