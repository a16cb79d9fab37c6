/**
 * A charge on the month's first Monday, end to end (issue 20, session 11): the billing endpoint serves a
 * history with one, and `costgate check --as-of` on a first Monday forecasts it today and says so in every output — the reason's words in text, `weekday` and its next day in --json.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorBilling } from "../helpers/billed";
import { runCli } from "../helpers/cli";

const PROJECT = 9301;
// Monday 1 May 2023: the model's 12 weeks (from 6 February) hold three first Mondays — one of 5 such days in
// 2015–2026 (a first <weekday> needs three; 12 weeks usually hold two before the next)
const AS_OF = "2023-05-01";
const FROM = "2022-12-01";
/** May's true total: 5 Mondays at 130, 8 weekend days at 60, 18 days at 100, and the charge today. */
const MAY = 5 * 130 + 8 * 60 + 18 * 100 + 900;
/** 100.00 a day (Mondays 130.00, weekends 60.00) from 1 December 2022, and 900.00 more on each first Monday. */
function bill(iso: string): number {
  const d = new Date(`${iso}T00:00:00Z`);
  const shape = [60, 130, 100, 100, 100, 100, 60][d.getUTCDay()]!;
  return shape + (d.getUTCDay() === 1 && d.getUTCDate() <= 7 ? 900 : 0);
}

let emu: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  ({ emu, env } = await emulatorBilling(PROJECT, FROM, AS_OF, bill));
});
afterAll(async () => {
  await emu?.close();
});

describe("costgate check on a charge billed on the first Monday", () => {
  it("forecasts May's today and words it in text and --json", async () => {
    const args = ["check", "--project-id", String(PROJECT), "--as-of", AS_OF, "--monthly-budget", "100000"];
    const json = await runCli([...args, "--json"], env);
    expect(json.code).toBe(0);
    const forecast = JSON.parse(json.stdout).projects[0].evaluation.figures.forecast;
    expect(forecast.reasons).toContainEqual({
      kind: "day-of-month",
      dayOfMonth: 1,
      amount: 900,
      weekday: 1,
      text: "a charge of about 900.00 recurs on the first Monday of each month and is forecast there",
    });
    // (read by day of the month only, May's p50 was the month without the charge: −23 %)
    expect(Math.abs(forecast.monthEnd.p50 / MAY - 1)).toBeLessThan(0.03);
    const text = await runCli(args, env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("recurs on the first Monday of each month and is forecast there");
  });
});
