import { describe, expect, it } from "vitest";
import { FLAG_NAMES } from "../../cli/period-flags";
import { parseBound, parsePeriod, splitPeriod } from "../../provider/billing/periods";

describe("parsePeriod", () => {
  it("sends dates as whole UTC days in YYYY-MM-DDTHH:mm:ss.sssZ", () => {
    expect(parsePeriod("2026-11-01", "2026-11-22")).toEqual({
      fromDay: "2026-11-01",
      toDay: "2026-11-22",
      periodFrom: "2026-11-01T00:00:00.000Z",
      periodTo: "2026-11-22T23:59:59.999Z",
    });
  });

  it("takes timestamps with offsets and Dates, converting to UTC", () => {
    const p = parsePeriod("2026-11-01T03:00:00+03:00", new Date("2026-11-02T10:20:30.400Z"));
    expect(p.periodFrom).toBe("2026-11-01T00:00:00.000Z");
    expect(p.periodTo).toBe("2026-11-02T10:20:30.400Z");
  });

  it("defaults to now", () => {
    const now = new Date("2026-11-22T12:00:00.000Z");
    expect(parsePeriod("2026-11-20", undefined, now).periodTo).toBe("2026-11-22T12:00:00.000Z");
  });

  it.each([
    ["2026-02-30", "2026-03-01", /^from: "2026-02-30" is not a real date/],
    ["2025-02-29", "2025-03-01", /^from: .*not a real date/],
    ["2026-11-01", "2026-13-01", /^to: .*not a real date/],
    ["yesterday", "2026-11-01", /^from: "yesterday" is not a date; use a date YYYY-MM-DD/],
    ["2026-11-22", "2026-11-01", /^to: .* is before from/],
    ["2026-11-01T25:00:00Z", "2026-11-02", /^from: .*impossible time/],
    [undefined, "2026-11-01", /^from: missing/],
    ["0026-11-01", "2026-11-22", /^from: "0026-11-01" is before 2000: is the year a typo\?/],
    ["1999-12-31", "2000-01-02", /^from: "1999-12-31" is before 2000/],
    [new Date("1970-01-01T00:00:00Z"), "2000-01-02", /^from: "1970-01-01" is before 2000/],
    ["2026-11-01", "2026-13-01", /^to: "2026-13-01" is not a real date \(there is no month 13\)/],
    [
      "2020-01-01",
      "2026-11-22",
      /^from: the period 2020-01-01 to 2026-11-22 is 2518 days, longer than 1096 \(maxPeriodDays\)/,
    ],
    ["2026-11-01", "9999-12-31", /longer than 1096/],
  ])("refuses %s .. %s", (from, to, message) => {
    expect(() => parsePeriod(from, to)).toThrowError(message);
  });

  it("takes up to maxPeriodDays (1096 by default), and another maximum when given", () => {
    expect(parsePeriod("2023-11-23", "2026-11-22").fromDay).toBe("2023-11-23");
    expect(() => parsePeriod("2026-11-01", "2026-11-22", { maxPeriodDays: 21 })).toThrowError(
      /is 22 days, longer than 21 \(maxPeriodDays\)/,
    );
    expect(parsePeriod("2015-01-01", "2026-11-22", { maxPeriodDays: 5000 }).fromDay).toBe("2015-01-01");
    expect(() => parsePeriod("2026-11-01", "2026-11-22", { maxPeriodDays: 0 })).toThrowError(
      /^maxPeriodDays: /,
    );
  });

  it("names the command line's flags, without offering a Date, when asked to", () => {
    expect(() => parsePeriod("2026-11-22", "2026-11-01", { names: FLAG_NAMES })).toThrowError(
      /^--to: .* is before --from/,
    );
    let message = "";
    try {
      parsePeriod("soon", undefined, { names: FLAG_NAMES });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^--from: "soon" is not a date/);
    expect(message).not.toMatch(/Date/);
  });

  it("accepts 29 February in a leap year", () => {
    expect(parseBound("2028-02-29", "from").at.toISOString()).toBe("2028-02-29T00:00:00.000Z");
  });
});

describe("splitPeriod", () => {
  it("keeps a period that fits in one window", () => {
    const p = parsePeriod("2026-11-01", "2026-11-30");
    expect(splitPeriod(p, 31)).toEqual([p]);
  });

  it("cuts at window size without sharing a day, across month and year boundaries", () => {
    const windows = splitPeriod(parsePeriod("2025-12-15", "2026-03-02"), 31);
    expect(windows.map((w) => [w.fromDay, w.toDay])).toEqual([
      ["2025-12-15", "2026-01-14"],
      ["2026-01-15", "2026-02-14"],
      ["2026-02-15", "2026-03-02"],
    ]);
    expect(windows[0]?.periodFrom).toBe("2025-12-15T00:00:00.000Z");
    expect(windows[0]?.periodTo).toBe("2026-01-14T23:59:59.999Z");
    expect(windows[1]?.periodFrom).toBe("2026-01-15T00:00:00.000Z");
    expect(windows[2]?.periodTo).toBe("2026-03-02T23:59:59.999Z");
  });

  it("covers three years in 36 windows of 31 days with every day once", () => {
    const windows = splitPeriod(parsePeriod("2023-11-23", "2026-11-22"), 31);
    expect(windows).toHaveLength(Math.ceil(1096 / 31));
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.fromDay > windows[i - 1]!.toDay).toBe(true);
  });

  it("refuses a window of 0 days", () => {
    expect(() => splitPeriod(parsePeriod("2026-11-01", "2026-11-02"), 0)).toThrowError(/^windowDays:/);
  });
});
