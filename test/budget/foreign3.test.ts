// The third foreign set (bench/foreign3.ts, issue 20 session 11): pure checks of the generator, not of the
// forecast — every series is a deterministic function of its profile and seed, a well-formed bill over the
// whole range, the splits do not share a series, and the story says what happened when, naming the issue's
// four mechanisms (steps, items billed on a day, delays, idle time) wherever the profile has them.
import { describe, expect, it } from "vitest";
import {
  FOREIGN3_FIRST,
  FOREIGN3_LAST,
  FOREIGN3_PROFILES,
  FOREIGN3_SPLITS,
  foreign3Split,
  generateForeign3,
  type Profile3,
} from "../../bench/foreign3";
import { itIsAForeignSet } from "./foreign-set";

const DAY_MS = 86_400_000;
const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const tune = foreign3Split("tune");
const heldout = foreign3Split("heldout");
const all = [...tune, ...heldout];
const profileOf = (name: string): Profile3 => FOREIGN3_PROFILES.find((p) => name.startsWith(`${p.name}/`))!;

describe("the third foreign set (bench/foreign3.ts)", () => {
  itIsAForeignSet({
    profiles: FOREIGN3_PROFILES,
    splits: FOREIGN3_SPLITS,
    tune,
    heldout,
    generate: generateForeign3,
    first: FOREIGN3_FIRST,
    last: FOREIGN3_LAST,
  });

  it("has realistic days and histories that start late", () => {
    const medians = all.map((s) => [...s.daily].sort((a, b) => a - b)[Math.floor(s.daily.length / 2)]!);
    expect(Math.min(...medians), "a quiet bill of a few euros a day").toBeLessThan(5);
    expect(Math.min(...medians)).toBeGreaterThan(0.5);
    expect(Math.max(...medians), "a large bill near 100,000 a day").toBeGreaterThan(50_000);
    expect(Math.max(...medians)).toBeLessThan(200_000);
    const midMonth = all.filter((s) => new Date(s.firstDay * DAY_MS).getUTCDate() !== 1);
    expect(midMonth.length, "series that start mid-month").toBeGreaterThanOrEqual(2);
  });

  it("tells a sorted story of dated events inside the series, naming every mechanism of the profile", () => {
    for (const s of all) {
      expect(s.story, s.name).toEqual([...s.story].sort());
      for (const line of s.story) {
        expect(line, s.name).toMatch(/^\d{4}-\d{2}-\d{2}: \S/);
        const date = line.slice(0, 10);
        expect(date >= iso(s.firstDay) && date <= iso(FOREIGN3_LAST), `${s.name}: ${line}`).toBe(true);
      }
      const p = profileOf(s.name);
      const told = (re: RegExp, what: string) =>
        expect(
          s.story.some((l) => re.test(l)),
          `${s.name}: ${what}`,
        ).toBe(true);
      for (const pool of p.pools)
        told(new RegExp(`pool ${pool.name}: \\d+ × ${pool.flavour} in ${p.zone.name}`), pool.name);
      if (p.pools.some((x) => x.runs !== "always")) told(/shelved|office hours|batch jobs/, "idle time");
      if (p.steps.count[0] >= 1) told(/(rollout|decommission|resize): \d+ servers? of /, "a step");
      if (p.reprices) told(/price of flavour \S+ [+−]\d/, "a price change");
      for (const item of p.items) told(new RegExp(`${item.what.replace(/[()]/g, ".")} .*billed`), item.what);
      if (p.delays.outages[0] >= 1) told(/billing outage: .*caught up on/, "an outage");
      if (p.delays.monthEnds[0] >= 1)
        told(/the month's last day billed on the next month's 1st/, "a late month end");
    }
  });

  it("bills a day-31 item on the 1st when rolled and on the month's last day when clamped", () => {
    for (const s of all) {
      for (const item of profileOf(s.name).items.filter((x) => x.on === 31)) {
        const days = s.story.filter((l) => l.includes(`${item.what} billed`)).map((l) => l.slice(5, 10));
        const expected =
          item.shorter === "roll"
            ? ["03-31", "05-01", "05-31", "07-01", "07-31", "08-31", "10-01", "10-31"]
            : ["03-31", "04-30", "05-31", "06-30", "07-31", "08-31", "09-30", "10-31", "11-30"];
        expect(days, `${s.name}: ${item.what}`).toEqual(
          expected.filter((d) => `2026-${d}` >= iso(s.firstDay)),
        );
      }
    }
  });

  it("bills quarterly and in-arrears items on a first Monday", () => {
    for (const s of all)
      for (const line of s.story.filter((l) =>
        /quarterly in advance|in arrears on the first Monday/.test(l),
      )) {
        const day = new Date(`${line.slice(0, 10)}T00:00:00Z`);
        expect(day.getUTCDay(), `${s.name}: ${line}`).toBe(1);
        expect(day.getUTCDate(), `${s.name}: ${line}`).toBeLessThanOrEqual(7);
      }
  });

  /** One server at 1 an hour, nothing else: the bill of a UTC day is the hours it ran. */
  const bare: Profile3 = {
    name: "bare",
    seed: 1,
    zone: { name: "UTC+2", utc: 2 },
    holidays: [],
    flavours: { f: [1, 1] },
    pools: [{ name: "p", flavour: "f", count: [1, 1], runs: "weekdays", gb: 0 }],
    storage: 0,
    traffic: { gb: [0, 0], perGb: 0, noise: [0, 0] },
    steps: { count: [0, 0], size: [0.1, 0.1], kinds: ["rollout"], window: [13, 18], pools: ["p"] },
    items: [],
    delays: { outages: [0, 0], days: [1, 1], computeOnly: 0, monthEnds: [0, 0] },
  };
  const billOn = (s: { firstDay: number; daily: number[] }, date: string) =>
    s.daily[Date.parse(`${date}T00:00:00Z`) / DAY_MS - s.firstDay]!;

  it("idles a weekend in local time: Friday 22:00 – Sunday 22:00 UTC at UTC+2, summer time and half hours", () => {
    const s = generateForeign3(bare);
    for (const [date, hours] of [
      ["2026-07-02", 24],
      ["2026-07-03", 22],
      ["2026-07-04", 0],
      ["2026-07-05", 2],
      ["2026-07-06", 24],
    ] as const)
      expect(billOn(s, date), date).toBe(hours);
    const berlin = generateForeign3({
      ...bare,
      zone: { name: "Europe/Berlin", utc: 1, summer: ["2026-03-29T01", "2026-10-25T01"] },
    });
    expect(billOn(berlin, "2026-03-27"), "winter: from 23:00 UTC").toBe(23);
    expect(billOn(berlin, "2026-07-03"), "summer: from 22:00 UTC").toBe(22);
    expect(billOn(berlin, "2026-10-30"), "winter again").toBe(23);
    const kolkata = generateForeign3({ ...bare, zone: { name: "Asia/Kolkata", utc: 5.5 } });
    expect(billOn(kolkata, "2026-07-03")).toBe(18.5);
    expect(billOn(kolkata, "2026-07-05")).toBe(5.5);
    const fourDays = generateForeign3({ ...bare, pools: [{ ...bare.pools[0]!, runs: "mon-thu" }] });
    expect(billOn(fourDays, "2026-07-02"), "Thursday until 22:00 UTC").toBe(22);
    expect(billOn(fourDays, "2026-07-03"), "Friday idle").toBe(0);
  });

  it("spreads a rollout over a local afternoon, across two UTC days west of Greenwich", () => {
    const s = generateForeign3({
      ...bare,
      zone: { name: "UTC−5", utc: -5 },
      pools: [{ ...bare.pools[0]!, count: [10, 10], runs: "always" }],
      steps: { ...bare.steps, count: [1, 1], size: [0.5, 0.5], window: [15, 21] },
    });
    const first = s.daily.findIndex((x) => x !== 240);
    expect(s.daily[first]!, s.story.join("\n")).toBeGreaterThan(240);
    expect(s.daily[first]!).toBeLessThan(360);
    expect(s.daily[first + 1]!, "the last servers come after 00:00 UTC").toBeLessThan(360);
    expect(s.daily[first + 2]!).toBe(360);
    expect(s.daily.at(-1)).toBe(360);
  });

  it("changes a flavour's price at the provider's midnight: 22:00 UTC the day before in summer", () => {
    const s = generateForeign3({
      ...bare,
      pools: [{ ...bare.pools[0]!, runs: "always" }],
      reprices: {
        count: [1, 1],
        change: [0.1, 0.1],
        zone: { name: "Europe/Berlin", utc: 1, summer: ["2026-03-29T01", "2026-10-25T01"] },
        what: "list price",
      },
    });
    const first = s.daily.findIndex((x) => x !== 24);
    const date = iso(s.firstDay + first);
    expect(date > "2026-03-29" && date < "2026-10-24", date).toBe(true);
    expect(s.daily[first]).toBeCloseTo(22 + 2 * 1.1, 6);
    expect(s.daily[first + 1]).toBeCloseTo(24 * 1.1, 6);
  });

  it("delays move money between days, never create or lose it", () => {
    for (const p of FOREIGN3_PROFILES) {
      const onTime = generateForeign3({ ...p, delays: { ...p.delays, outages: [0, 0], monthEnds: [0, 0] } });
      const late = generateForeign3({ ...p, delays: { ...p.delays, outages: [4, 4], monthEnds: [3, 3] } });
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      expect(sum(late.daily), p.name).toBeCloseTo(sum(onTime.daily), 1);
      expect(late.daily.filter((x) => x === 0).length, p.name).toBeGreaterThan(
        onTime.daily.filter((x) => x === 0).length,
      );
    }
  });
});
