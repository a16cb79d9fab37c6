// The second foreign set (bench/foreign2.ts, issue 20 session 11): pure checks of the generator, not of the
// forecast — every series is a deterministic function of its profile and seed, a well-formed bill over the
// whole range, the splits do not share a series, and the story says what happened when.
import { describe, expect, it } from "vitest";
import {
  FOREIGN2_FIRST,
  FOREIGN2_LAST,
  FOREIGN2_PROFILES,
  FOREIGN2_SPLITS,
  foreign2Split,
  generateForeign2,
  type Part,
} from "../../bench/foreign2";
import { itIsAForeignSet } from "./foreign-set";

const DAY_MS = 86_400_000;
const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const tune = foreign2Split("tune");
const heldout = foreign2Split("heldout");
const all = [...tune, ...heldout];

/** What each mechanism writes in the story when it happens. */
const TOLD: Record<Part["kind"], RegExp | undefined> = {
  autoscale: /autoscaled tier/,
  price: /price change: [+−]\d/,
  snapshots: /snapshots pruned/,
  holiday: /holiday until/,
  gpu: /GPU batch job/,
  migration: /migration began/,
  reserved: /reserved capacity billed/,
  arrears: /egress billed in arrears/,
  team: /team grows/,
  oneOffs: /one-off/,
  late: /late invoice|billed with the next day/,
  fleet: undefined,
  noise: undefined,
};

describe("the second foreign set (bench/foreign2.ts)", () => {
  itIsAForeignSet({
    profiles: FOREIGN2_PROFILES,
    splits: FOREIGN2_SPLITS,
    tune,
    heldout,
    generate: generateForeign2,
    first: FOREIGN2_FIRST,
    last: FOREIGN2_LAST,
  });

  it("has realistic days and histories that start late", () => {
    for (const s of all) {
      const sorted = [...s.daily].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      expect(median, `${s.name}: a realistic day`).toBeGreaterThanOrEqual(1);
      expect(median, `${s.name}: a realistic day`).toBeLessThanOrEqual(20_000);
    }
    expect(all.filter((s) => s.firstDay > FOREIGN2_FIRST).length, "short histories").toBeGreaterThanOrEqual(
      2,
    );
  });

  it("tells a sorted story of dated events inside the series, naming every mechanism of the profile", () => {
    for (const s of all) {
      expect(s.story, s.name).toEqual([...s.story].sort());
      for (const line of s.story) {
        expect(line, s.name).toMatch(/^\d{4}-\d{2}-\d{2}: \S/);
        const date = line.slice(0, 10);
        expect(date >= iso(s.firstDay) && date <= iso(FOREIGN2_LAST), `${s.name}: ${line}`).toBe(true);
      }
      const profile = FOREIGN2_PROFILES.find((p) => s.name.startsWith(`${p.name}/`))!;
      for (const part of profile.parts) {
        const told = TOLD[part.kind];
        if (told)
          expect(
            s.story.some((l) => told.test(l)),
            `${s.name} tells of its ${part.kind}`,
          ).toBe(true);
      }
    }
  });

  it("bills reserved capacity of the 31st on each month's last day, and of the 1st on the 1st", () => {
    const lastDays = ["03-31", "04-30", "05-31", "06-30", "07-31", "08-31", "09-30", "10-31", "11-30"];
    for (const s of all) {
      const profile = FOREIGN2_PROFILES.find((p) => s.name.startsWith(`${p.name}/`))!;
      const reserved = profile.parts.find((p) => p.kind === "reserved");
      if (!reserved) continue;
      const days = s.story.filter((l) => l.includes("reserved capacity billed")).map((l) => l.slice(5, 10));
      const expected = reserved.day === 31 ? lastDays : lastDays.map((d) => `${d.slice(0, 2)}-01`);
      expect(days, s.name).toEqual(expected.filter((d) => `2026-${d}` >= iso(s.firstDay)));
    }
  });
});
