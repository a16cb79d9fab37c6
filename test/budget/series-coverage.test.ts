/**
 * seriesCoverageMiss (bench/evaluate.ts, session 12): the share of series whose p80 coverage is outside
 * 72–92 % or whose p90 coverage is under 82 %, as issue 20's check reads coverage — per series.
 */
import { describe, expect, it } from "vitest";
import { type MonthSample, seriesCoverageMiss } from "../../bench/evaluate";

/** `n` samples of series `seed`, the first `in80` under p80 and the first `in90` under p90. */
function series(seed: number, n: number, in80: number, in90: number): MonthSample[] {
  return Array.from({ length: n }, (_, i) => ({
    seed,
    family: "x",
    day: i + 2,
    error: { model: 0, "run-rate": 0, "trailing-mean": 0, "seasonal-naive": 0 },
    under80: i < in80,
    under90: i < in90,
  }));
}

describe("seriesCoverageMiss", () => {
  it("counts each series once, at the issue's bounds", () => {
    const xs = [
      ...series(1, 100, 71, 90), // p80 under 72 %
      ...series(2, 100, 72, 82), // on both bounds: no miss
      ...series(3, 100, 93, 95), // p80 over 92 %
      ...series(4, 100, 80, 81), // p90 under 82 %
    ];
    expect(seriesCoverageMiss(xs)).toEqual({ p80Low: 25, p80High: 25, p90Low: 25 });
  });

  it("is NaN on no samples, not a division by zero read as 0 %", () => {
    const c = seriesCoverageMiss([]);
    expect(Number.isNaN(c.p80Low) && Number.isNaN(c.p80High) && Number.isNaN(c.p90Low)).toBe(true);
  });
});
