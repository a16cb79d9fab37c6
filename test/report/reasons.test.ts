/**
 * Why the forecast moved: every output says each reason the model gave, in the same words, and nothing
 * when it gave none. Hand-built reports (the model may not yet find every kind); the step the model
 * finds today end to end in test/report/cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import { checkText } from "../../cli/commands/check";
import { palette } from "../../cli/report/colors";
import { renderHtml } from "../../cli/report/html";
import { reportJson } from "../../cli/report/json";
import { renderMarkdown } from "../../cli/report/markdown";
import { buildReport, type Report } from "../../cli/report/model";
import { renderTerminal } from "../../cli/report/terminal";
import { reportReasons, SHOWN_REASONS } from "../../cli/report/words";
import { CONFIG, EVERY_REASON, happyReport, withReasons } from "./fixtures";

const WORDS = [
  "a charge of about 1,250.00 recurs on the 1st of each month and is forecast there",
  "the charges of 3 November arrived with 4 November's (read as one delay, not a drop and a spike)",
  "10 November was a one-off (3.2× a usual day), left out of the level",
  "the level rose 18 % on 12 November (a step: the days before are read at the new level)",
];
const plain = palette(false);
/** inputOf gives back what a report was built from (its balance, charges, config and clock). */
const inputOf = (r: Report) => ({
  balance: r.balance,
  consumption: r.consumption,
  config: r.config,
  now: new Date(r.generatedAt),
});
/** The terminal report with its wrapped lines joined back, for finding sentences. */
const terminalText = (r: Report) =>
  renderTerminal(r, { colors: plain })
    .split("\n")
    .map((l) => l.trim())
    .join(" ");

describe("why the forecast moved", () => {
  const happy = happyReport();
  const moved = withReasons(happy, EVERY_REASON);

  it("the happy path's 4,000.00 day is read as a one-off, and said so", () => {
    expect(happy.evaluation.figures.forecast.reasons).toMatchObject([{ kind: "spike", day: "2026-11-10" }]);
  });

  it("with no reason, no output has the section", () => {
    const calm = withReasons(happy, []);
    expect(calm.evaluation.figures.forecast.reasons).toEqual([]);
    expect(renderTerminal(calm, { colors: plain })).not.toMatch(/^Why/m);
    expect(renderMarkdown(calm)).not.toContain("Why the forecast moved");
    expect(renderHtml(calm)).not.toMatch(/Why the forecast moved|<line class="reason-mark/);
    expect(reportJson(calm).forecast.reasons).toEqual([]);
    expect(checkText(calm.evaluation)).not.toContain("why:");
  });

  it("the terminal lists each reason under Why, in 80 columns", () => {
    const out = renderTerminal(moved, { colors: plain });
    for (const line of out.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(out).toMatch(/^Why {9}· a charge of about 1,250\.00/m);
    const text = terminalText(moved);
    for (const w of WORDS) expect(text).toContain(`· ${w}`);
  });

  it("Markdown lists them under a heading, between the figures and the rules", () => {
    const md = renderMarkdown(moved);
    const at = md.indexOf("**Why the forecast moved**");
    expect(at).toBeGreaterThan(md.indexOf("| Runway |"));
    expect(at).toBeLessThan(md.indexOf("| Result | Rule |"));
    for (const w of WORDS) expect(md).toContain(`- ${w.replace(/'/g, "&#39;")}\n`);
  });

  it("HTML lists them under the chart and marks the days of a step, a delay and a one-off on it", () => {
    const page = renderHtml(moved);
    expect(page).toContain('<h3 class="why">Why the forecast moved</h3>');
    for (const w of WORDS) expect(page).toContain(`<li>${w.replace(/'/g, "&#39;")}</li>`);
    expect(page.indexOf("Why the forecast moved")).toBeGreaterThan(page.indexOf('<svg class="chart spend"'));
    for (const [kind, day] of [
      ["step", "2026-11-12"],
      ["delay", "2026-11-03"],
      ["spike", "2026-11-10"],
    ])
      expect(page).toMatch(new RegExp(`<line class="reason-mark ${kind}" data-day="${day}"[^>]*><title>`));
    expect(page).toMatch(/<text class="reason-label"[^>]*>step<\/text>/);
  });

  it("report --json has forecast.reasons with the day as YYYY-MM-DD and the text, in the report's currency", () => {
    const json = reportJson({ ...moved, currency: "EUR" });
    expect(json.forecast.reasons).toEqual([
      {
        kind: "day-of-month",
        dayOfMonth: 1,
        amount: 1250,
        text: WORDS[0]!.replace("1,250.00", "1,250.00 EUR"),
      },
      { kind: "delay", day: "2026-11-03", text: WORDS[1] },
      { kind: "spike", day: "2026-11-10", ratio: 3.2, text: WORDS[2] },
      { kind: "step", day: "2026-11-12", ratio: 1.18, text: WORDS[3] },
    ]);
    // the evaluation keeps the model's view, worded without a currency, as check --json has it
    expect(json.evaluation.figures.forecast.reasons.map((r) => r.text)).toEqual(WORDS);
  });

  it("check prints a line per reason under the monthly-budget rule", () => {
    const lines = checkText(moved.evaluation).split("\n");
    const rule = lines.findIndex((l) => /monthly-budget \(mandatory\)/.test(l));
    expect(lines.slice(rule + 1, rule + 5)).toEqual(WORDS.map((w) => `             why: ${w}`));
    expect(lines[rule + 5]).toMatch(/min-runway-days/);
  });

  it("check says no reason when the monthly budget is not set", () => {
    const unset = withReasons(happyReport({ config: { ...CONFIG, monthlyBudget: undefined } }), EVERY_REASON);
    expect(checkText(unset.evaluation)).not.toContain("why:");
  });

  it("no output gives reasons for the trailing mean, which they do not explain", () => {
    const r = withReasons(
      happyReport({ config: { ...CONFIG, forecastMethod: "trailing-mean" } }),
      EVERY_REASON,
    );
    expect(reportReasons(r)).toEqual([]);
    expect(renderMarkdown(r)).not.toContain("Why the forecast moved");
    expect(renderHtml(r)).not.toMatch(/Why the forecast moved|<line class="reason-mark/);
    expect(reportJson(r).forecast.reasons).toEqual([]);
    expect(checkText(r.evaluation)).not.toContain("why:");
  });

  it(`text outputs list at most ${SHOWN_REASONS} and count the rest`, () => {
    const many = withReasons(
      happy,
      Array.from({ length: 10 }, (_, i) => ({
        kind: "delay" as const,
        day: `2026-11-0${i}`.replace("-00", "-10"),
      })),
    );
    const shown = reportReasons(many);
    expect(shown).toHaveLength(SHOWN_REASONS);
    expect(shown[SHOWN_REASONS - 1]).toBe("and 5 more reasons (see --json)");
    expect(checkText(many.evaluation).match(/why:/g)).toHaveLength(SHOWN_REASONS);
    expect(reportJson(many).forecast.reasons).toHaveLength(10);
  });

  it("a hostile currency reaches no output raw: escapes stripped in the terminal, markup escaped in HTML and Markdown", () => {
    const currency = "\x1b]0;owned\x07EUR\u202e<img src=x onerror=alert(1)>|";
    const built = buildReport({ ...inputOf(happy), currency });
    expect(built.currency).toBe("EUR<img src=x onerror=alert(1)>|");
    // the words clean it too, whatever a report holds
    const r = withReasons({ ...built, currency }, EVERY_REASON);
    const out = renderTerminal(withReasons(built, EVERY_REASON), { colors: plain });
    const raw = (t: string) => ["\x1b", "\x07", "\u202e"].some((c) => t.includes(c));
    expect(raw(reportReasons(r)[0] ?? "")).toBe(false);
    expect(raw(out)).toBe(false);
    expect(renderHtml(r)).not.toContain("<img");
    const md = renderMarkdown(r);
    expect(md).not.toContain("<img");
    expect(md).toContain("about 1,250.00 EUR&lt;img");
    expect(JSON.stringify(reportJson(r).forecast.reasons)).not.toMatch(/\\u001b|\u202e/);
  });
});
