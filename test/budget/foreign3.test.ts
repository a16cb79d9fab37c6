// The third foreign set (bench/foreign3.ts, issue 20 session 11): pure checks of the generator, not of the
// forecast — every series is a deterministic function of its profile and seed, a well-formed bill over the
// whole range, the splits do not share a series, and the story says what happened when, naming the issue's
// four mechanisms (steps, items billed on a day, delays, idle time) wherever the profile has them.
import fc from "fast-check";
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

const DAY_MS = 86_400_000;
const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const tune = foreign3Split("tune");
const heldout = foreign3Split("heldout");
const all = [...tune, ...heldout];
const profileOf = (name: string): Profile3 => FOREIGN3_PROFILES.find((p) => name.startsWith(`${p.name}/`))!;

describe("the third foreign set (bench/foreign3.ts)", () => {
  it("has ten profiles in each seed group and the splits share no seed or name", () => {
    expect(FOREIGN3_PROFILES).toHaveLength(10);
    expect(tune).toHaveLength(FOREIGN3_SPLITS.tune.length * 10);
    expect(heldout).toHaveLength(FOREIGN3_SPLITS.heldout.length * 10);
    const seeds = new Set(tune.map((s) => s.seed));
    expect(heldout.filter((s) => seeds.has(s.seed))).toEqual([]);
    expect(new Set(all.map((s) => s.name)).size).toBe(all.length);
    expect(new Set(all.map((s) => s.seed)).size).toBe(all.length);
  });

  it("gives the same series for the same profile and seed, and another for another seed", () => {
    for (const p of FOREIGN3_PROFILES) {
      expect(generateForeign3(p)).toEqual(generateForeign3({ ...p }));
      expect(generateForeign3({ ...p, seed: p.seed + 1000 }).daily).not.toEqual(generateForeign3(p).daily);
    }
  });

  it("bills every day from the start to 30 November in finite, non-negative, cent-rounded amounts", () => {
    for (const s of all) {
      expect(s.firstDay, s.name).toBeGreaterThanOrEqual(FOREIGN3_FIRST);
      expect(s.firstDay + s.daily.length - 1, s.name).toBe(FOREIGN3_LAST);
      const bad = s.daily.filter(
        (x) => !Number.isFinite(x) || x < 0 || Math.abs(x * 100 - Math.round(x * 100)) > 1e-6,
      );
      expect(bad, s.name).toEqual([]);
    }
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
      if (p.steps.count[0] >= 1) told(/(rollout|decommission|resize): \d+ /, "a step");
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

  it("stays well-formed for any seed, in bounded time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.nat(FOREIGN3_PROFILES.length - 1),
        (seed, i) => {
          const started = performance.now();
          const s = generateForeign3({ ...FOREIGN3_PROFILES[i]!, seed });
          expect(performance.now() - started).toBeLessThan(500);
          expect(s.firstDay + s.daily.length - 1).toBe(FOREIGN3_LAST);
          expect(s.daily.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
          expect(s.story).toEqual([...s.story].sort());
        },
      ),
      { numRuns: 60 },
    );
  });
});
