import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { palette, useColor } from "../../cli/report/colors";
import { boxWrap, chartPoints, renderTerminal, spendChart, visibleLength } from "../../cli/report/terminal";
import { ANSI, happyReport } from "./fixtures";

const plain = palette(false);

describe("boxWrap", () => {
  it("never breaks a number from its %, and loses no word", () => {
    const word = fc.oneof(
      fc.constantFrom("80 %", "90 %", "likely", "at", "most", "34,149.38,"),
      fc.string({ maxLength: 12 }).map((s) => s.replace(/[\s%\u2060]/g, "x")),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), fc.integer({ min: 42, max: 100 }), (words, width) => {
        const lines = boxWrap(words.join(" "), width);
        for (const l of lines) {
          expect(l).not.toMatch(/^%/);
          expect(l.includes("\u2060")).toBe(false);
        }
        expect(lines.join(" ").replace(/\s+/g, " ").trim()).toBe(words.join(" ").replace(/\s+/g, " ").trim());
      }),
    );
  });
});

describe("renderTerminal", () => {
  it("has no color codes and fits 80 columns when colors are off", () => {
    const text = renderTerminal(happyReport(), { colors: plain });
    expect(text).not.toMatch(ANSI);
    for (const line of text.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it("shows the balance, the chart with the allowance, the month, the runway and every verdict", () => {
    const text = renderTerminal(happyReport(), { colors: plain });
    expect(text).toContain("Project 4242 (openstack)");
    expect(text).toMatch(/Balance\s+30,000\.00\s+bonuses 1,200\.00/);
    expect(text).toMatch(/◂ budget marks the daily allowance, 1,000\.00\/day \(30,000\.00/);
    expect(text.split("\n").filter((l) => l.endsWith("◂ budget"))).toHaveLength(1);
    expect(text).toMatch(/┤/);
    expect(text).toMatch(/This month\s+\S+ in November to 22 November, \d+ % of the 30,000\.00 budget/);
    expect(text).toMatch(/Forecast\s+\S+ by 30 November \(median\); 80 % likely at most \S+,\s+90 %/);
    // one percent style ("73 %", "80 %"), and a number never wraps away from its "%"
    expect(text).not.toMatch(/\d%/);
    expect(text).not.toMatch(/\d\s*\n\s*%/);
    expect(text).toMatch(/█ spent ▓ median ▒ 80 % ░ 90 % │ budget/);
    expect(text).toMatch(/Method\s+a weekday-aware level over \d+ days of history/);
    expect(text).toMatch(/Runway\s+[\d.]+–[\d.]+ days: runs out (between|about)/);
    for (const rule of ["min-balance", "monthly-budget", "min-runway-days", "daily-spike"]) {
      expect(text).toMatch(
        new RegExp(`(PASS|WARN|FAIL|NOT JUDGED|NOT SET)\\s+${rule}\\s+(mandatory|advisory)`),
      );
    }
    expect(text).toMatch(/Rules\s+(PASS|FAIL): /);
    // 60 days and 8 forecast days do not fit one column each: columns of 2 days, months labelled, the
    // forecast's last day at the end
    expect(text).toMatch(/^\s+Oct\s+Nov\s+30 Nov$/m);
    expect(text).toContain("each column: 2 days");
    expect(text).toContain("after 22 Nov: the forecast, its median and above it its 90 % bound");
  });

  it("colors with colors on, and still fits 80 visible columns", () => {
    const text = renderTerminal(happyReport(), { colors: palette(true) });
    expect(text).toMatch(ANSI);
    for (const line of text.split("\n")) expect(visibleLength(line)).toBeLessThanOrEqual(80);
  });

  it("averages days into columns when the period is longer than the chart", () => {
    const text = renderTerminal(happyReport({ days: 400 }), { colors: plain });
    expect(text).toMatch(/each column: 7 days, spend per day averaged/);
    for (const line of text.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    const { points, per } = chartPoints(happyReport({ days: 10 }).days, 60);
    expect(per).toBe(1);
    expect(points).toHaveLength(10);
  });

  it("says so when no monthly budget is set, and draws no allowance", () => {
    const text = renderTerminal(happyReport({ config: { minBalance: 100 } }), { colors: plain });
    expect(text).toContain("no monthly budget set");
    expect(text).not.toContain("◂ budget");
    // a rule without its threshold is not a SKIP (that is only for a rule disabled on purpose)
    expect(text).toMatch(/NOT SET\s+monthly-budget/);
    expect(text).not.toMatch(/SKIP/);
  });

  it("says the allowance's figure when a spike stretches the scale past it, and stays in 80 columns", () => {
    for (const spike of [20, 60]) {
      const r = happyReport({
        config: { monthlyBudget: 40000 },
        amount: (d) => (d.endsWith("-15") ? 1300 * spike : 1300),
      });
      const lines = spendChart(r, plain, 80);
      const marked = lines.filter((l) => l.includes("◂ budget"));
      expect(marked).toHaveLength(1);
      expect(marked[0]).toMatch(/◂ budget 1,333$/);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    }
    const calm = spendChart(happyReport({ config: { monthlyBudget: 40000 }, amount: () => 1300 }), plain, 80);
    expect(calm.filter((l) => l.endsWith("◂ budget"))).toHaveLength(1);
  });

  it("draws a project with no spend", () => {
    const text = renderTerminal(happyReport({ amount: () => 0, config: {} }), { colors: plain });
    expect(text).toMatch(/Runway\s+no spend/);
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe("useColor", () => {
  it.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: false }, {}, false],
    [{}, { CI: "true" }, false],
    [{ isTTY: true }, { NO_COLOR: "1" }, false],
    [{ isTTY: true }, { NO_COLOR: "" }, true],
    [{ isTTY: true }, { TERM: "dumb" }, false],
    [{ isTTY: false }, { FORCE_COLOR: "1" }, true],
    [{ isTTY: true }, { FORCE_COLOR: "0" }, false],
    [{ isTTY: false }, { FORCE_COLOR: "1", NO_COLOR: "1" }, false],
  ])("%j with %j: %s", (stream, env, expected) => {
    expect(useColor(stream, env)).toBe(expected);
  });
});
