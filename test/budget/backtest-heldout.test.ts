// The held-out regression check (issue 20): the forecast replayed as `costgate check --as-of D` does on a
// fixed subset of the held-out corpus (bench/heldout.ts) may not get worse than the figures recorded in
// bench/forecast-baseline.json. After a change that improves them, `npm run backtest -- --write-baseline`
// records the new figures (commit the file with the change).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type ForeignFigures,
  foreignHeldoutFigures,
  type HeldoutFigures,
  heldoutFigures,
} from "../../bench/heldout";

const baseline = JSON.parse(
  readFileSync(join(__dirname, "..", "..", "bench", "forecast-baseline.json"), "utf8"),
) as HeldoutFigures;
/** How much worse than the baseline a ratio may get: pooled, per family (fewer samples, more trade-offs). */
const POOLED_SLACK = 0.02;
const FAMILY_SLACK = 0.1;
/** …and the share of series missing the per-series bounds (points; 105 series, one is ~1 point). */
const SERIES_SLACK = 3;

describe("the forecast on the held-out corpus", () => {
  let now: HeldoutFigures;
  beforeAll(() => {
    now = heldoutFigures(baseline.series);
  }, 60_000);

  it("replays the same series as the baseline", () => {
    expect(now.samples).toBe(baseline.samples);
  });

  it("its pooled month-end error, as a ratio to run-rate's and the trailing mean's, has not regressed", () => {
    expect(now.ratioRunRate).toBeLessThanOrEqual(baseline.ratioRunRate + POOLED_SLACK);
    expect(now.ratioTrailingMean).toBeLessThanOrEqual(baseline.ratioTrailingMean + POOLED_SLACK);
    expect(now.ratioSeasonalNaive).toBeLessThanOrEqual(baseline.ratioSeasonalNaive + POOLED_SLACK);
  });

  it("no family's ratio has regressed", () => {
    for (const [family, b] of Object.entries(baseline.families)) {
      const f = now.families[family];
      expect(f, family).toBeDefined();
      expect(f!.ratioRunRate, `${family} vs run-rate`).toBeLessThanOrEqual(b.ratioRunRate + FAMILY_SLACK);
      expect(f!.ratioTrailingMean, `${family} vs trailing mean`).toBeLessThanOrEqual(
        b.ratioTrailingMean + FAMILY_SLACK,
      );
    }
  });

  it("the share of series missing the checker's per-series bounds has not grown", () => {
    if (baseline.seriesMissPct === undefined) return;
    expect(now.seriesMissPct).toBeLessThanOrEqual(baseline.seriesMissPct + SERIES_SLACK);
  });

  it("p80 and p90 cover the truth as often as they say (the issue's bounds), with little bias", () => {
    expect(now.coverageP80Pct).toBeGreaterThanOrEqual(72);
    expect(now.coverageP80Pct).toBeLessThanOrEqual(92);
    expect(now.coverageP90Pct).toBeGreaterThanOrEqual(Math.max(82, now.coverageP80Pct));
    expect(now.coverageP90Pct).toBeLessThanOrEqual(97);
    expect(Math.abs(now.biasPct)).toBeLessThanOrEqual(Math.max(1, Math.abs(baseline.biasPct) + 0.5));
  });

  it("the runway's error, as a ratio to run-rate's and the trailing mean's, has not regressed", () => {
    expect(now.runwayRatioRunRate).toBeLessThanOrEqual(baseline.runwayRatioRunRate + POOLED_SLACK);
    expect(now.runwayRatioTrailingMean).toBeLessThanOrEqual(baseline.runwayRatioTrailingMean + POOLED_SLACK);
  });
});

describe("the forecast on the foreign held-out sets (bills from generators the model was not written for)", () => {
  let now: Record<string, ForeignFigures>;
  beforeAll(() => {
    now = foreignHeldoutFigures();
  }, 120_000);

  it.each(["foreign", "foreign2", "foreign3", "foreign4", "foreign5"])(
    "%s: no more series miss the checker's bounds, pooled not worse",
    (name) => {
      const b = baseline.foreign?.[name];
      expect(
        b,
        `bench/forecast-baseline.json has no ${name} figures: npm run backtest -- --write-baseline`,
      ).toBeDefined();
      const f = now[name]!;
      expect(f.samples).toBe(b!.samples);
      // one series more may flip on a change that helps the others (20 series: one is 5 points)
      expect(f.seriesMissing).toBeLessThanOrEqual(b!.seriesMissing + 1);
      expect(f.ratioRunRate).toBeLessThanOrEqual(Math.min(0.7, b!.ratioRunRate + POOLED_SLACK));
      expect(f.ratioTrailingMean).toBeLessThanOrEqual(b!.ratioTrailingMean + POOLED_SLACK);
      expect(f.coverageP80Pct).toBeGreaterThanOrEqual(72);
      expect(f.coverageP80Pct).toBeLessThanOrEqual(92);
      expect(f.coverageP90Pct).toBeGreaterThanOrEqual(Math.max(82, f.coverageP80Pct));
    },
  );
});
