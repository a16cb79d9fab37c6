/**
 * Month-end items and delays, end to end (issue 20, session 12): the billing endpoint serves histories where a
 * month's last day held its monthly item alone (its use billed with the next 1st), and where an item of the
 * 31st is billed on the next 1st after shorter months; `costgate check --as-of --json` forecasts both and says
 * so in the reasons.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { addDays } from "../../provider/billing/periods";
import { runCli } from "../helpers/cli";

const MOVED = 9311;
const ROLLED = 9312;
const FROM = "2026-07-01";
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
/** The days served: 1 July to 30 November. */
const DAYS = dayOf("2026-12-01") - dayOf(FROM);
/** 100.00 a day, ±2 % (whole cents, deterministic). */
const usage = (i: number) => Math.round(100 * (1 + (((i * 37) % 11) - 5) / 250) * 100) / 100;

/** 60.00 of monitoring on each 30th; 30 September holds it alone, its use billed with 1 October. */
function moved(days: number) {
  const out = Array.from({ length: days }, (_, i) => {
    const day = addDays(FROM, i);
    return { day, totalAmount: usage(i) + (day.endsWith("-30") ? 60 : 0), totalBonuses: 0 };
  });
  const i = dayOf("2026-09-30") - dayOf(FROM);
  out[i + 1]!.totalAmount = Math.round((out[i + 1]!.totalAmount + usage(i)) * 100) / 100;
  out[i]!.totalAmount = 60;
  return out;
}
/** A backup plan of 300.00 on the 31st, billed on 1 July and 1 October after June and September. */
function rolled(days: number) {
  const item = new Set(["2026-07-01", "2026-07-31", "2026-08-31", "2026-10-01", "2026-10-31"]);
  return Array.from({ length: days }, (_, i) => {
    const day = addDays(FROM, i);
    return { day, totalAmount: usage(i) + (item.has(day) ? 300 : 0), totalBonuses: 0 };
  });
}

let emu: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  emu.setProject({ id: MOVED, products: { 1: { balance: 50_000, bonuses: 0, daily: moved(DAYS) } } });
  emu.setProject({ id: ROLLED, products: { 1: { balance: 50_000, bonuses: 0, daily: rolled(DAYS) } } });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
});
afterAll(async () => {
  await emu?.close();
});

async function forecastOf(project: number, asOf: string) {
  const args = [
    "check",
    "--project-id",
    String(project),
    "--as-of",
    asOf,
    "--monthly-budget",
    "100000",
    "--json",
  ];
  const run = await runCli(args, env);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout).projects[0].evaluation.figures.forecast;
}
const truthOf = (daily: { day: string; totalAmount: number }[], month: string) =>
  daily.filter((d) => d.day.startsWith(month)).reduce((s, d) => s + d.totalAmount, 0);

describe("costgate check on month-end items and delays", () => {
  it("keeps the item of the 30th after a month whose last day held it alone, and says the delay", async () => {
    const f = await forecastOf(MOVED, "2026-10-20");
    expect(f.reasons).toContainEqual(expect.objectContaining({ kind: "day-of-month", dayOfMonth: 30 }));
    expect(f.reasons).toContainEqual(expect.objectContaining({ kind: "delay", day: "2026-09-30" }));
    // (the previous model forecast October without it and read 1 October's catch-up as a level)
    const october = truthOf(moved(DAYS), "2026-10");
    expect(Math.abs(f.monthEnd.p50 / october - 1)).toBeLessThan(0.01);
  });

  it("forecasts an item of the 31st on the next 1st after a shorter month, and words it", async () => {
    const f = await forecastOf(ROLLED, "2026-11-20");
    expect(f.reasons).toContainEqual(
      expect.objectContaining({
        kind: "day-of-month",
        dayOfMonth: 31,
        rolled: true,
        text: expect.stringMatching(
          /^a charge of about 29\d\.\d\d recurs on the 31st of each month \(the next month's 1st after shorter months\) and is forecast there$/,
        ),
      }),
    );
    // November (30 days) holds no item: it comes on 1 December
    const november = truthOf(rolled(DAYS), "2026-11");
    expect(Math.abs(f.monthEnd.p50 / november - 1)).toBeLessThan(0.01);
  });
});
