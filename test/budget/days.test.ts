import { describe, expect, it } from "vitest";
import { daysLeftInMonth, forecastMonthEnd } from "../../provider/budget";
import { ConfigError } from "../../provider/errors";

describe("daysLeftInMonth", () => {
  it.each([
    ["2026-02-10T12:00:00Z", 18, 28, "28-day February"],
    ["2028-02-10T12:00:00Z", 19, 29, "leap February 2028"],
    ["2026-04-10T12:00:00Z", 20, 30, "30-day April"],
    ["2026-01-10T12:00:00Z", 21, 31, "31-day January"],
    ["2026-12-01T00:00:00Z", 30, 31, "first day of a month, at midnight"],
    ["2026-11-30T23:59:59.999Z", 0, 30, "last day of a month, last millisecond"],
    ["2026-02-28T08:00:00Z", 0, 28, "28 February 2026"],
    ["2028-02-28T08:00:00Z", 1, 29, "28 February 2028 (leap)"],
    ["2028-02-29T08:00:00Z", 0, 29, "29 February 2028"],
    ["2100-02-28T08:00:00Z", 0, 28, "2100 is not a leap year"],
    ["2000-02-28T08:00:00Z", 1, 29, "2000 is a leap year"],
    ["2026-12-01T00:30:00+02:00", 0, 30, "an offset clock is read in UTC (still 30 November)"],
  ])("%s: %i days left in a %i-day month (%s)", (now, left, length) => {
    expect(daysLeftInMonth(new Date(now))).toBe(left);
    const f = forecastMonthEnd({ consumption: [], now: new Date(now) });
    expect([f.daysLeft, f.daysInMonth]).toEqual([left, length]);
  });

  it("refuses an invalid clock", () => {
    expect(() => daysLeftInMonth(new Date("not a date"))).toThrow(ConfigError);
    expect(() => daysLeftInMonth(new Date(Number.NaN))).toThrow(/^now: must be a valid Date/);
  });
});
