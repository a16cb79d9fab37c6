// The fifth foreign set (bench/foreign5.ts, issue 20 session 13): pure checks of the generator, not of the
// forecast — the checks every set passes, then its own mechanisms on a bare profile (constant demand, nothing
// but on-demand instances): a step's size within 8–30 %, a delayed day's charges conserved, monthly items on
// their day, the autoscaler within its min and max, dev environments idle on weekends and holidays.
import { describe, expect, it } from "vitest";
import { monthsOf } from "../../bench/foreign";
import {
  FLAVOURS5,
  FOREIGN5_FIRST,
  FOREIGN5_LAST,
  FOREIGN5_PROFILES,
  FOREIGN5_SPLITS,
  foreign5Split,
  generateForeign5,
  holidaysOf,
  lastBusinessDayOf,
  type Profile5,
} from "../../bench/foreign5";
import { itIsAForeignSet } from "./foreign-set";

const DAY_MS = 86_400_000;
const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const tune = foreign5Split("tune");
const heldout = foreign5Split("heldout");
const all = [...tune, ...heldout];
const sum = (xs: readonly number[]) => Math.round(xs.reduce((a, b) => a + b * 100, 0));
const billOn = (s: { firstDay: number; daily: number[] }, date: string) => s.daily[dayOf(date) - s.firstDay]!;

/** 10,000 instance-loads, constant, at 60 % a c1.xlarge: 16,667 instances, 76,001.52 a day, nothing else. */
const bare: Profile5 = {
  name: "bare",
  seed: 1,
  start: ["2025-01-01", "2025-01-01"],
  country: "DE",
  demand: {
    kind: "traffic",
    level: [10_000, 10_000],
    drift: [0, 0],
    vol: [0, 0],
    ar: { phi: [0, 0], sd: [0, 0] },
    shiftEvery: [1e9, 1e9],
    weekend: [1, 1],
    holiday: [1, 1],
    intraday: "flat",
    season: "none",
    seasonDepth: [0, 0],
    hourlyNoise: [0, 0],
  },
  scaler: {
    flavour: "c1.xlarge",
    min: 1,
    max: 1e9,
    target: 0.6,
    up: [0.6, 0.6],
    down: [0.6, 0.6],
    cooldown: [1, 1],
    downRate: 0.1,
    reserved: [0, 0],
    discount: [0, 0],
    reservedAfter: 0,
    volumeGb: 0,
  },
  fixedPerHour: [0, 0],
  objectGb: [0, 0],
  objectGrowth: [0, 0],
  egress: [0, 0],
  monthly: [],
  steps: { every: [1e9, 1e9], up: 0.5, kinds: ["customer"] },
  delays: { perDay: [0, 0], outagesPerYear: [0, 0], missingPerYear: [0, 0] },
  oneOffs: { perYear: [0, 0], kinds: ["incident"] },
};
const BARE_DAY = 16_667 * 0.19 * 24;

describe("the fifth foreign set (bench/foreign5.ts)", () => {
  itIsAForeignSet({
    profiles: FOREIGN5_PROFILES,
    splits: FOREIGN5_SPLITS,
    tune,
    heldout,
    generate: generateForeign5,
    first: FOREIGN5_FIRST,
    last: FOREIGN5_LAST,
  });

  it("spans about 5 to 80,000 a day; histories from early 2025, two from mid-2026, one of about 45 days", () => {
    const medians = all.map((s) => [...s.daily].sort((a, b) => a - b)[Math.floor(s.daily.length / 2)]!);
    expect(Math.min(...medians), "a bill of about 5 a day").toBeLessThan(10);
    expect(Math.min(...medians)).toBeGreaterThan(1);
    expect(Math.max(...medians), "a bill of about 80,000 a day").toBeGreaterThan(40_000);
    for (const base of [...FOREIGN5_SPLITS.tune, ...FOREIGN5_SPLITS.heldout]) {
      const group = all.filter((s) => s.seed >= base && s.seed < base + 10);
      const starts = group.map((s) => iso(s.firstDay));
      expect(starts.filter((d) => d < "2025-07-01").length, `${base}: early 2025`).toBeGreaterThanOrEqual(4);
      expect(starts.filter((d) => d >= "2026-06-01" && d < "2026-08-01").length, `${base}`).toBe(2);
      expect(
        group.filter((s) => s.daily.length >= 40 && s.daily.length <= 50).length,
        `${base}: ~45 days`,
      ).toBe(1);
    }
  });

  it("scores only March–November 2026: earlier months are history", () => {
    for (const s of all) {
      const months = monthsOf(s).map(iso);
      expect(months[0]! >= "2026-03-01", s.name).toBe(true);
      expect(months.at(-1), s.name).toBe("2026-11-01");
    }
  });

  it("tells a sorted story of dated events inside the series; the set holds every mechanism", () => {
    for (const s of all) {
      expect(s.story, s.name).toEqual([...s.story].sort());
      for (const line of s.story) {
        expect(line, s.name).toMatch(/^\d{4}-\d{2}-\d{2}: \S/);
        expect(line.slice(0, 10) >= iso(s.firstDay) && line.slice(0, 10) <= iso(FOREIGN5_LAST), line).toBe(
          true,
        );
      }
    }
    const story = all.flatMap((s) => s.story);
    for (const re of [
      /step \+[\d.]+ %: release/,
      /step −[\d.]+ %: release/,
      /step \+[\d.]+ %: a customer won/,
      /step −[\d.]+ %: a customer lost/,
      /step [+−][\d.]+ %: list price of/,
      /demand level shifts/,
      /drift −/,
      /reserved \(−\d+ %\), billed monthly on the 1st/,
      /billed monthly on the 1st/,
      /billed monthly on the last business day/,
      /billed monthly on the 5th/,
      /billed quarterly on the 1st/,
      /shelved on weekends and holidays/,
      /charges with the next day/,
      /charges split over the next two days/,
      /pipeline outage of [234] days/,
      /missing day/,
      /one-off: load test/,
      /one-off: incident/,
    ])
      expect(
        story.some((l) => re.test(l)),
        String(re),
      ).toBe(true);
  });

  it("steps by 8–30 % of the driver, as told, and the bare bill steps by as much", () => {
    for (const s of all)
      for (const line of s.story.filter((l) => /: step /.test(l))) {
        const size = Number(line.match(/step [+−]([\d.]+) %/)![1]);
        expect(size >= 8 && size <= 30, `${s.name}: ${line}`).toBe(true);
      }
    const kinds = new Set<string>();
    for (const seed of [1, 2, 3, 4]) {
      const s = generateForeign5({
        ...bare,
        seed,
        steps: { every: [6, 12], up: 0.5, kinds: ["release", "customer", "price"] },
      });
      const steps = s.story.filter((l) => /: step /.test(l));
      expect(steps.length).toBeGreaterThan(40);
      for (const line of steps) {
        kinds.add(line.match(/%: (release|a customer|list price)/)![1]!);
        const day = dayOf(line.slice(0, 10));
        if (day - 2 < s.firstDay) continue;
        const told = Number(line.match(/step ([+−][\d.]+) %/)![1]!.replace("−", "-")) / 100;
        // a customer's step starts at local midnight (the day before in UTC): the day before that is clean
        const before = s.daily[day - 2 - s.firstDay]!;
        const after = s.daily[day + 1 - s.firstDay]!;
        // the story rounds the size to 0.1 %, instances are whole: 1 in ≥ 5,000 at most
        expect(Math.abs(after - before * (1 + told)), `${line}: ${before} → ${after}`).toBeLessThanOrEqual(
          before * 0.0008 + 0.02,
        );
      }
    }
    expect([...kinds].sort()).toEqual(["a customer", "list price", "release"]);
  });

  it("delays move a day's charges to the next day or two, an outage's to its catch-up day, never losing a cent", () => {
    for (const p of FOREIGN5_PROFILES)
      for (const seed of [p.seed, p.seed + 1400]) {
        const none = { perDay: [0, 0], outagesPerYear: [0, 0], missingPerYear: [0, 0] } as const;
        const onTime = generateForeign5({ ...p, seed, delays: none });
        const late = generateForeign5({
          ...p,
          seed,
          delays: { perDay: [0.05, 0.05], outagesPerYear: [4, 4], missingPerYear: [0, 0] },
        });
        expect(sum(late.daily), p.name).toBe(sum(onTime.daily));
        const at = (s: typeof late, day: number) => Math.round(s.daily[day - s.firstDay]! * 100);
        const moved = late.story.filter((l) => /billing delay|pipeline outage/.test(l));
        expect(moved.length, p.name).toBeGreaterThan(0);
        for (const line of moved) {
          const d = dayOf(line.slice(0, 10));
          const span = /next day$/.test(line)
            ? [d, d + 1]
            : /next two days$/.test(line)
              ? [d, d + 1, d + 2]
              : Array.from({ length: Number(line.match(/outage of (\d)/)![1]) + 1 }, (_, k) => d + k);
          for (const k of span.slice(0, /outage/.test(line) ? -1 : 1)) expect(at(late, k), line).toBe(0);
          expect(sum(span.map((k) => at(late, k) / 100)), `${p.name}/${seed} ${line}`).toBe(
            sum(span.map((k) => at(onTime, k) / 100)),
          );
          if (/outage/.test(line)) expect(line).toContain(`caught up on ${iso(span.at(-1)!)}`);
        }
        const missing = generateForeign5({
          ...p,
          seed,
          delays: { perDay: [0, 0], outagesPerYear: [0, 0], missingPerYear: [4, 4] },
        });
        const lost = missing.story.filter((l) => /missing day/.test(l)).map((l) => dayOf(l.slice(0, 10)));
        expect(sum(missing.daily), "a missing day loses exactly its charges").toBe(
          sum(onTime.daily) - sum(lost.map((d) => at(onTime, d) / 100)),
        );
      }
  });

  it("bills monthly items on their day: the 1st, the 31st or the month's last, the last business day, quarterly", () => {
    const s = generateForeign5({
      ...bare,
      monthly: [
        { what: "plan", amount: [100, 100], on: 1 },
        { what: "late plan", amount: [50, 50], on: 31 },
        { what: "support", amount: [7, 7], on: "last business day" },
        { what: "audit", amount: [300, 300], on: "quarterly" },
      ],
    });
    const holidays = new Set([...holidaysOf("DE", 2025), ...holidaysOf("DE", 2026)]);
    for (const d of ["2026-04-03", "2026-04-06", "2026-05-14", "2026-05-25", "2025-10-03", "2025-04-18"])
      expect(holidays.has(dayOf(d)), d).toBe(true);
    for (const [date, last] of [
      ["2025-12-05", "2025-12-31"],
      ["2026-05-05", "2026-05-29"],
      ["2026-10-05", "2026-10-30"],
      ["2026-02-05", "2026-02-27"],
    ])
      expect(iso(lastBusinessDayOf("DE", dayOf(date!))), date).toBe(last);
    for (let day = s.firstDay; day <= FOREIGN5_LAST; day++) {
      const date = new Date(day * DAY_MS);
      const dom = date.getUTCDate();
      const length = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
      let lbd = day - dom + length;
      while ([0, 6].includes(new Date(lbd * DAY_MS).getUTCDay()) || holidays.has(lbd)) lbd--;
      const expected =
        BARE_DAY +
        (dom === 1 ? 100 : 0) +
        (dom === length ? 50 : 0) +
        (day === lbd ? 7 : 0) +
        (dom === 1 && date.getUTCMonth() % 3 === 0 ? 300 : 0);
      expect(s.daily[day - s.firstDay], iso(day)).toBeCloseTo(expected, 6);
    }
    for (const x of all)
      for (const line of x.story.filter((l) => / billed monthly on the \d+/.test(l))) {
        const on = Number(line.match(/ billed monthly on the (\d+)/)![1]);
        const date = new Date(`${line.slice(0, 10)}T00:00:00Z`);
        const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
        expect(date.getUTCDate(), `${x.name}: ${line}`).toBe(Math.min(on, last));
      }
  });

  it("keeps the autoscaler within its min and max, however wild the demand, and reaches both", () => {
    const price = FLAVOURS5["a1.large"];
    const low = Math.round(3 * price * 24 * 100) / 100;
    const high = Math.round(20 * price * 24 * 100) / 100;
    let atLow = 0;
    let atHigh = 0;
    for (const seed of [1, 2, 3]) {
      const s = generateForeign5({
        ...bare,
        seed,
        demand: {
          ...bare.demand,
          level: [6, 6],
          vol: [0.08, 0.08],
          hourlyNoise: [0.6, 0.6],
          intraday: "office",
        },
        scaler: {
          ...bare.scaler,
          flavour: "a1.large",
          min: 3,
          max: 20,
          up: [0.75, 0.75],
          down: [0.35, 0.35],
        },
        oneOffs: { perYear: [20, 20], kinds: ["load test", "incident"] },
      });
      for (const x of s.daily) {
        expect(x).toBeGreaterThanOrEqual(low);
        expect(x).toBeLessThanOrEqual(high);
      }
      atLow += s.daily.filter((x) => x === low).length;
      atHigh += s.daily.filter((x) => x === high).length;
    }
    expect(atLow, "days all at the minimum").toBeGreaterThan(0);
    expect(atHigh, "days all at the maximum").toBeGreaterThan(0);
  });

  it("shelves the dev environment from Friday 19:00 to Monday 07:00 local time and on holidays", () => {
    const s = generateForeign5({ ...bare, dev: { count: [5, 5], flavour: "a1.large", volumeGb: 100 } });
    const volumes = Math.round(((5 * 100 * 0.1) / 730) * 24 * 100) / 100;
    const hour = 5 * FLAVOURS5["a1.large"];
    const ran = (date: string) => (billOn(s, date) - BARE_DAY - volumes) / hour;
    expect(ran("2026-07-04"), "Saturday").toBeCloseTo(0, 6);
    expect(ran("2026-07-05"), "Sunday").toBeCloseTo(0, 6);
    expect(ran("2026-07-02"), "Thursday").toBeCloseTo(24, 6);
    expect(ran("2026-07-03"), "Friday in summer time: to 17:00 UTC").toBeCloseTo(17, 6);
    expect(ran("2026-07-06"), "Monday in summer time: from 05:00 UTC").toBeCloseTo(19, 6);
    expect(ran("2026-01-09"), "Friday in winter: to 18:00 UTC").toBeCloseTo(18, 6);
    expect(ran("2026-05-14"), "Ascension Day: only Friday's first local hours").toBeCloseTo(2, 6);
  });

  it("follows its seasons: demand outside term time, Black Friday", () => {
    const school = generateForeign5({
      ...bare,
      country: "FR",
      demand: { ...bare.demand, season: "education", seasonDepth: [0.5, 0.5] },
    });
    expect(billOn(school, "2026-08-10") / billOn(school, "2026-06-10")).toBeCloseTo(0.5, 3);
    const shop = generateForeign5({
      ...bare,
      demand: { ...bare.demand, season: "retail", seasonDepth: [0.5, 0.5] },
    });
    expect(billOn(shop, "2026-11-28") / billOn(shop, "2026-10-14")).toBeCloseTo(1.8, 3);
    expect(billOn(shop, "2026-11-02")).toBeLessThan(billOn(shop, "2026-11-20"));
  });
});
