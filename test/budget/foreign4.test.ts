// The fourth foreign set (bench/foreign4.ts, issue 20 session 12): pure checks of the generator, not of the
// forecast — the checks every set passes, then its own mechanisms on bare profiles: a step's size within
// 8–30 %, a delayed day's charges conserved, monthly items on their day, and only March 2026 on scored.
import { describe, expect, it } from "vitest";
import { monthsOf } from "../../bench/foreign";
import {
  FOREIGN4_FIRST,
  FOREIGN4_LAST,
  FOREIGN4_PROFILES,
  FOREIGN4_SPLITS,
  foreign4Split,
  generateForeign4,
  type Profile4,
} from "../../bench/foreign4";
import { itIsAForeignSet } from "./foreign-set";

const DAY_MS = 86_400_000;
const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const tune = foreign4Split("tune");
const heldout = foreign4Split("heldout");
const all = [...tune, ...heldout];
const sum = (xs: readonly number[]) => Math.round(xs.reduce((a, b) => a + b * 100, 0));

/** One group of 20 servers at 0.072 an hour, always on, nothing else billed: 34.56 a day. */
const bare: Profile4 = {
  name: "bare",
  seed: 1,
  start: ["2025-01-01", "2025-01-01"],
  groups: [{ name: "g", flavour: "m1.large", count: [20, 20], volumeGb: 0 }],
  floatingIps: [0, 0],
  loadBalancers: [0, 0],
  objectGb: [0, 0],
  objectGrowthGb: [0, 0],
  egress: { gb: [0, 0], weekend: 1, noise: 0 },
  trend: [0, 0],
  steps: { every: [1e9, 1e9], up: 0.5, kinds: ["servers"] },
  monthly: [],
  delays: { days: 0, weekends: 0, missing: 0 },
  oneOffs: { migrations: 0, incidents: 0, incident: [0, 0], bursts: 0 },
};
const billOn = (s: { firstDay: number; daily: number[] }, date: string) => s.daily[dayOf(date) - s.firstDay]!;

describe("the fourth foreign set (bench/foreign4.ts)", () => {
  itIsAForeignSet({
    profiles: FOREIGN4_PROFILES,
    splits: FOREIGN4_SPLITS,
    tune,
    heldout,
    generate: generateForeign4,
    first: FOREIGN4_FIRST,
    last: FOREIGN4_LAST,
  });

  it("spans about 10 to 50,000 a day, with histories from 2025 and two that start mid-2026", () => {
    const medians = all.map((s) => [...s.daily].sort((a, b) => a - b)[Math.floor(s.daily.length / 2)]!);
    expect(Math.min(...medians), "a bill of about 10 a day").toBeLessThan(15);
    expect(Math.min(...medians)).toBeGreaterThan(2);
    expect(Math.max(...medians), "a bill of about 50,000 a day").toBeGreaterThan(30_000);
    for (const base of [...FOREIGN4_SPLITS.tune, ...FOREIGN4_SPLITS.heldout]) {
      const group = all.filter((s) => s.seed >= base && s.seed < base + 10);
      const starts = group.map((s) => iso(s.firstDay));
      expect(
        starts.filter((d) => d < "2026-01-01").length,
        `${base}: histories from 2025`,
      ).toBeGreaterThanOrEqual(5);
      expect(
        starts.filter((d) => d >= "2026-06-01").length,
        `${base}: mid-2026 starts`,
      ).toBeGreaterThanOrEqual(2);
    }
  });

  it("scores only March–November 2026: earlier months are history", () => {
    for (const s of all) {
      const months = monthsOf(s).map(iso);
      expect(months[0]! >= "2026-03-01", s.name).toBe(true);
      expect(months.at(-1), s.name).toBe("2026-11-01");
      expect(months[0], s.name).toBe(`${iso(Math.max(s.firstDay, dayOf("2026-03-01"))).slice(0, 8)}01`);
    }
  });

  it("tells a sorted story of dated events inside the series; the set holds every mechanism", () => {
    for (const s of all) {
      expect(s.story, s.name).toEqual([...s.story].sort());
      for (const line of s.story) {
        expect(line, s.name).toMatch(/^\d{4}-\d{2}-\d{2}: \S/);
        expect(line.slice(0, 10) >= iso(s.firstDay) && line.slice(0, 10) <= iso(FOREIGN4_LAST), line).toBe(
          true,
        );
      }
      expect(
        s.story.some((l) => / billed monthly on the \d+/.test(l)),
        s.name,
      ).toBe(true);
    }
    const story = all.flatMap((s) => s.story);
    for (const re of [
      /step [+−][\d.]+ %: \d+ × \S+ added to/,
      /step −[\d.]+ %: \d+ × \S+ removed from/,
      /step [+−][\d.]+ %: \S+ resized from/,
      /step [+−][\d.]+ %: list price change/,
      /shelved on weekends/,
      /charges with the next day/,
      /charges split over the next two days/,
      /the weekend billed on Monday/,
      /missing day/,
      /one-off: migration/,
      /one-off: support incident/,
      /one-off: bulk export/,
      /trend −/,
    ])
      expect(
        story.some((l) => re.test(l)),
        String(re),
      ).toBe(true);
  });

  it("steps by 8–30 % of the hourly bill, as told and as billed", () => {
    for (const s of all)
      for (const line of s.story.filter((l) => /: step /.test(l))) {
        const size = Math.abs(Number(line.match(/step [+−]([\d.]+) %/)![1]));
        expect(size >= 8 && size <= 30, `${s.name}: ${line}`).toBe(true);
      }
    for (const seed of [1, 2, 3, 4, 5]) {
      const s = generateForeign4({
        ...bare,
        seed,
        steps: { every: [6, 12], up: 0.5, kinds: ["servers", "resize", "price"] },
      });
      const steps = s.story.filter((l) => /: step /.test(l));
      expect(steps.length).toBeGreaterThan(20);
      for (const line of steps) {
        const day = dayOf(line.slice(0, 10));
        const told = Number(line.match(/step ([+−][\d.]+) %/)![1]!.replace("−", "-")) / 100;
        const before = s.daily[day - 1 - s.firstDay]!;
        const after = s.daily[day + 1 - s.firstDay]!;
        // the story rounds the size to 0.1 % and each day to the cent
        expect(Math.abs(after - before * (1 + told)), `${line}: ${before} → ${after}`).toBeLessThanOrEqual(
          0.0105 + before * 0.0005,
        );
      }
    }
  });

  it("delays move a day's charges to the next day or two, or a weekend's to Monday, never losing a cent", () => {
    for (const p of FOREIGN4_PROFILES)
      for (const seed of [p.seed, p.seed + 8500]) {
        const onTime = generateForeign4({ ...p, seed, delays: { days: 0, weekends: 0, missing: 0 } });
        const late = generateForeign4({ ...p, seed, delays: { days: 4, weekends: 0.3, missing: 0 } });
        expect(sum(late.daily), p.name).toBe(sum(onTime.daily));
        const at = (s: typeof late, day: number) => Math.round(s.daily[day - s.firstDay]! * 100);
        const delays = late.story.filter((l) => /billing delay/.test(l));
        expect(delays.length, p.name).toBeGreaterThan(2);
        for (const line of delays) {
          const d = dayOf(line.slice(0, 10));
          expect(at(late, d), line).toBe(0);
          const span = /next day$/.test(line) ? [d, d + 1] : [d, d + 1, d + 2];
          expect(sum(span.map((k) => at(late, k) / 100)), `${p.name}/${seed} ${line}`).toBe(
            sum(span.map((k) => at(onTime, k) / 100)),
          );
          if (/weekend/.test(line)) expect(new Date(d * DAY_MS).getUTCDay(), line).toBe(6);
        }
        const missing = generateForeign4({ ...p, seed, delays: { days: 0, weekends: 0, missing: 3 } });
        const lost = missing.story.filter((l) => /missing day/.test(l)).map((l) => dayOf(l.slice(0, 10)));
        expect(lost.length, p.name).toBeGreaterThan(0);
        expect(sum(missing.daily), "a missing day loses exactly its charges").toBe(
          sum(onTime.daily) - sum(lost.map((d) => at(onTime, d) / 100)),
        );
      }
  });

  it("bills monthly items on their day: the 1st, another fixed day, a licence per server that morning", () => {
    const s = generateForeign4({
      ...bare,
      groups: [{ ...bare.groups[0]!, licence: { what: "licence", perServerMonth: 7, day: 10 } }],
      monthly: [
        { what: "plan", day: 1, amount: [100, 100] },
        { what: "late plan", day: 30, amount: [50, 50] },
      ],
    });
    for (let day = s.firstDay; day <= FOREIGN4_LAST; day++) {
      const date = new Date(day * DAY_MS);
      const dom = date.getUTCDate();
      const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
      const expected =
        34.56 + (dom === 1 ? 100 : 0) + (dom === 10 ? 140 : 0) + (dom === Math.min(30, last) ? 50 : 0);
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

  it("shelves a dev group from Friday evening to Monday morning, its volumes still billed", () => {
    const s = generateForeign4({
      ...bare,
      groups: [{ ...bare.groups[0]!, volumeGb: 73, idleWeekends: true }],
    });
    const line = (perGbMonth: number) => Math.round(((20 * 73 * perGbMonth) / 730) * 24 * 100) / 100;
    const volumes = line(0.08) + line(0.7 * 0.04);
    expect(billOn(s, "2026-07-04"), "Saturday: volumes only").toBeCloseTo(volumes, 6);
    expect(billOn(s, "2026-07-05"), "Sunday: volumes only").toBeCloseTo(volumes, 6);
    expect(billOn(s, "2026-07-02"), "Thursday: all day").toBeCloseTo(34.56 + volumes, 6);
    for (const [date, hours] of [
      ["2026-07-03", [17, 21]],
      ["2026-07-06", [24 - 9, 24 - 6]],
    ] as const) {
      const ran = (billOn(s, date) - volumes) / (20 * 0.072);
      expect(ran, date).toBeGreaterThanOrEqual(hours[0] - 1e-6);
      expect(ran, date).toBeLessThanOrEqual(hours[1] + 1e-6);
    }
  });
});
