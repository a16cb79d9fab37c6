/**
 * The two queries of spec §4.3/§4.4 over the seeded data, the "no data" answers of spec §7, the
 * period rules, and projects added by tests. The clock is fixed at Saturday 2026-11-21 12:00 UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { balance, report } from "./helpers";

const NOW = "2026-11-21T12:00:00.000Z";
let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, now: () => new Date(NOW) });
});
afterAll(() => emu.close());

type Item = { day: string; totalAmount: number; totalBonuses: number };
const items = async (e: Emulator, id: number, product: number, from: string, to: string): Promise<Item[]> =>
  (await report(e, id, product, from, to)).json.data.bill.reportSubscriptionConsuming.items;
const isCents = (x: number) => Math.abs(x * 100 - Math.round(x * 100)) < 1e-6;

describe("getSubscriptionBalance (spec §4.3)", () => {
  it("answers balance and bonuses in exact cents; 1003 is negative", async () => {
    const b = (await balance(emu, 4242, 1)).json.data.bill.getSubscriptionBalance;
    expect(b.balance).toBeGreaterThan(0);
    expect(isCents(b.balance) && isCents(b.bonuses)).toBe(true);
    const neg = (await balance(emu, emu.seed.billing.negativeBalanceProjectId, 1)).json.data.bill;
    expect(neg.getSubscriptionBalance.balance).toBeLessThan(0);
  });

  it("answers null for a product the project lacks and for an unknown project (spec §7)", async () => {
    expect((await balance(emu, 4242, 3)).json.data.bill.getSubscriptionBalance).toBeNull();
    expect((await balance(emu, 999_999, 1)).json.data.bill.getSubscriptionBalance).toBeNull();
  });
});

describe("reportSubscriptionConsuming (spec §4.4)", () => {
  it("lists one item per day from periodFrom's date to today, in date order, with exact cents", async () => {
    const got = await items(emu, 4242, 1, "2026-10-23T00:00:00.000Z", "2026-12-31T23:59:59.999Z");
    expect(got).toHaveLength(30);
    expect(got[0]?.day).toBe("2026-10-23");
    expect(got.at(-1)?.day).toBe("2026-11-21");
    expect(got.map((i) => i.day)).toEqual([...got.map((i) => i.day)].sort());
    expect(got.every((i) => isCents(i.totalAmount) && i.totalBonuses <= i.totalAmount)).toBe(true);
  });

  it("charges weekdays more than weekends and shows the spike day as the maximum", async () => {
    const got = await items(emu, 4242, 1, "2026-08-24T00:00:00.000Z", "2026-11-20T00:00:00.000Z");
    const avg = (xs: Item[]) => xs.reduce((s, i) => s + i.totalAmount, 0) / xs.length;
    const weekend = got.filter((i) => [0, 6].includes(new Date(i.day).getUTCDay()));
    const weekdays = got.filter((i) => ![0, 6].includes(new Date(i.day).getUTCDay()));
    expect(avg(weekdays)).toBeGreaterThan(avg(weekend) * 1.2);
    const max = got.reduce((m, i) => (i.totalAmount > m.totalAmount ? i : m));
    expect(max.day).toBe(emu.seed.billing.spikeDay);
    expect(max.totalAmount).toBeGreaterThan(avg(weekdays) * 3);
  });

  it("counts days by date, whatever the time of periodFrom, and charges today by the part elapsed", async () => {
    const two = await items(emu, 4242, 1, "2026-11-19T13:00:00.000Z", "2026-11-20T00:00:00.000Z");
    expect(two.map((i) => i.day)).toEqual(["2026-11-19", "2026-11-20"]);
    const late = await startEmulator({ now: () => new Date("2026-11-21T23:59:59.999Z") });
    try {
      const [half] = await items(emu, 4242, 1, NOW, NOW);
      const [full] = await items(late, 4242, 1, NOW, NOW);
      expect(half!.totalAmount).toBeCloseTo(full!.totalAmount / 2, 0);
    } finally {
      await late.close();
    }
  });

  it("gives no items for a malformed or reversed period (docs/API.md#errors)", async () => {
    const bad = ["2026-11-01", "2026-11-01T00:00:00Z", "2026-02-30T00:00:00.000Z", "yesterday"];
    for (const from of bad) expect(await items(emu, 4242, 1, from, NOW)).toEqual([]);
    expect(await items(emu, 4242, 1, NOW, "2026-11-01T00:00:00.000Z")).toEqual([]);
    expect(await items(emu, 4242, 1, "2027-01-01T00:00:00.000Z", "2027-01-31T00:00:00.000Z")).toEqual([]);
  });

  it("answers null for an unknown project or a product it lacks (as the balance does); zeros for the zero-consumption project", async () => {
    const r = await report(emu, 999_999, 1, "2026-11-01T00:00:00.000Z", NOW);
    expect(r.json.data.bill.reportSubscriptionConsuming).toBeNull();
    const lacking = await report(emu, 4242, 3, "2026-11-01T00:00:00.000Z", NOW);
    expect(lacking.json.data.bill.reportSubscriptionConsuming).toBeNull();
    const zero = await items(
      emu,
      emu.seed.billing.zeroConsumptionProjectId,
      1,
      "2026-11-01T00:00:00.000Z",
      NOW,
    );
    expect(zero).toHaveLength(21);
    expect(zero.every((i) => i.totalAmount === 0)).toBe(true);
  });
});

describe("projects added by tests", () => {
  it("serves a project given with setProject exactly, and forgets it on removeProject", async () => {
    emu.setProject({
      id: 7,
      products: {
        2: {
          balance: 10.5,
          bonuses: 1,
          daily: [{ day: "2026-11-20", totalAmount: 1312.4, totalBonuses: 0.3 }],
        },
      },
    });
    expect((await balance(emu, 7, 2)).json.data.bill.getSubscriptionBalance).toEqual({
      balance: 10.5,
      bonuses: 1,
    });
    expect(await items(emu, 7, 2, "2026-11-01T00:00:00.000Z", NOW)).toEqual([
      { day: "2026-11-20", totalAmount: 1312.4, totalBonuses: 0.3 },
    ]);
    emu.removeProject(7);
    expect((await balance(emu, 7, 2)).json.data.bill.getSubscriptionBalance).toBeNull();
  });

  it("refuses a malformed project naming the field", () => {
    expect(() =>
      emu.setProject({ id: 8, products: { 1: { balance: 1, daily: [{ day: "20-11", totalAmount: 1 }] } } }),
    ).toThrow(/products\.1\.daily\.0\.day/);
  });

  it("seeds 500 synthetic projects, each answering", async () => {
    const ids = emu.addSyntheticProjects(500);
    expect(ids).toHaveLength(500);
    expect(emu.billingProjectIds()).toEqual(expect.arrayContaining([4242, ids[0], ids[499]]));
    expect((await balance(emu, ids[499]!, 1)).json.data.bill.getSubscriptionBalance.balance).toEqual(
      expect.any(Number),
    );
    expect((await items(emu, ids[0]!, 1, "2026-11-15T00:00:00.000Z", NOW)).length).toBe(7);
  });

  it("generates the same charges for the same seed", async () => {
    const twin = await startEmulator({ now: () => new Date(NOW) });
    try {
      const from = "2024-01-01T00:00:00.000Z";
      expect(await items(twin, 4242, 1, from, NOW)).toEqual(await items(emu, 4242, 1, from, NOW));
    } finally {
      await twin.close();
    }
  });
});
