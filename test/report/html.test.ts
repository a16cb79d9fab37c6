import { describe, expect, it } from "vitest";
import { renderHtml } from "../../cli/report/html";
import { html, SafeHtml } from "../../cli/report/html-escape";
import { buildReport, type Report } from "../../cli/report/model";
import { niceStep, ticks } from "../../cli/report/svg";
import { consumption, happyReport } from "./fixtures";

/** inputOf gives back what a report was built from (its balance, config and clock). */
const inputOf = (r: Report) => ({
  balance: r.balance,
  consumption: r.consumption,
  config: r.config,
  now: new Date(r.generatedAt),
});

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

describe("renderHtml", () => {
  const page = renderHtml(happyReport());

  it("draws one bar per day and the forecast to the month's end", () => {
    expect(count(page, /<rect class="bar( over)?( partial)?" data-day="/g)).toBe(60);
    expect(count(page, /<rect class="forecast" data-day="/g)).toBe(8);
    expect(page).toContain('data-day="2026-11-10"');
    expect(page).toMatch(/<rect class="bar over" data-day="2026-11-10"/);
    expect(page).toMatch(/<path class="allowance" d="M[\d.]+ [\d.]+H/);
  });

  it("shades the forecast's 80–90 % band, draws its median, and says both in words", () => {
    // one closed shape through 8 days up (p90) and 8 back (p80); a line through the 8 medians
    const band = page.match(/<path class="band" d="M([^"]+)Z"/)?.[1] ?? "";
    expect(band.split("L")).toHaveLength(16);
    const p50 = page.match(/<path class="p50" d="M([^"]+)"/)?.[1] ?? "";
    expect(p50.split("L")).toHaveLength(8);
    expect(page).toMatch(/<rect class="forecast-band" x="[\d.]+" y="\d+" width="[\d.]+"/);
    expect(page).toMatch(
      /Forecast:<\/strong> [\d,.]+ by 30 November \(median\); 80 % likely at most [\d,.]+, 90 % at most/,
    );
    expect(page).toMatch(
      /Runway:<\/strong> [\d.]+–[\d.]+ days: runs out (between \d+ and \d+|about \d+) Dec(ember)? 2026/,
    );
    expect(page).toMatch(
      /How:<\/strong> a weekday-aware level over \d+ days of history; (normal|low) confidence/,
    );
  });

  it("marks today's partial day, so a short bar does not read as a drop; a replay has none", () => {
    expect(count(page, /<rect class="bar( over)? partial"/g)).toBe(1);
    expect(page).toMatch(
      /<rect class="bar( over)? partial" data-day="2026-11-22"[^>]*><title>22 Nov 2026 \(today, so far\)/,
    );
    expect(page).toMatch(/<text class="partial-label" [^>]*>today, so far<\/text>/);
    expect(page).toContain('<i class="k-partial"></i>today, so far');
    // a period that ends before today shows only whole days
    const past = renderHtml(
      buildReport({ ...inputOf(happyReport()), consumption: consumption(30, "2026-11-15") }),
    );
    expect(past).not.toMatch(/class="bar( over)? partial"|today, so far/);
  });

  it("labels the month bar's median, p80 and p90, and marks the quantile the gate judges", () => {
    expect(page).toMatch(/median [\d,.]+ · p80 [\d,.]+ \(judged\) · p90 [\d,.]+<\/text>/);
    expect(page).toMatch(/<line class="judged-mark" [^>]*><title>p80, the forecast the gate judges/);
    const p90 = renderHtml(happyReport({ config: { monthlyBudget: 30000, quantile: "p90" } }));
    expect(p90).toMatch(/median [\d,.]+ · p80 [\d,.]+ · p90 [\d,.]+ \(judged\)<\/text>/);
  });

  it("draws no band with forecastMethod trailing-mean: flat forecast bars only", () => {
    const flat = renderHtml(
      happyReport({ config: { monthlyBudget: 30000, forecastMethod: "trailing-mean" } }),
    );
    expect(count(flat, /<rect class="forecast" data-day="/g)).toBe(8);
    expect(flat).not.toContain('class="band"');
    expect(flat).not.toContain('class="forecast-band"');
  });

  it("loads nothing: no script, no link, no external URL, a CSP that allows none", () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe|@import|src=|href=/i);
    const urls = page.match(/https?:\/\/[^\s"')]+/g) ?? [];
    expect(urls.every((u) => u === "http://www.w3.org/2000/svg")).toBe(true);
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it("has print styles, the verdicts and the data table", () => {
    expect(page).toContain("@media print");
    expect(count(page, /<span class="status (pass|fail|warn|not-judged|not-configured|skip)">/g)).toBe(4);
    expect(count(page, /<tr><td>2026-\d\d-\d\d<\/td>/g)).toBe(60);
    expect(page).toContain("Runway");
  });

  it("escapes every value", () => {
    const r = happyReport();
    r.evaluation.findings[0]!.message = `<script>alert("x")</script> & 'q'`;
    (r as { product: string }).product = `"><img src=x onerror=alert(1)>`;
    const p = renderHtml(r);
    expect(p).not.toContain("<script>alert");
    expect(p).not.toContain("<img src=x");
    expect(p).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;");
    expect(p).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("html", () => {
  it("escapes values, joins arrays, keeps SafeHtml and drops nothing-values", () => {
    const inner = html`<b>${"<i>"}</b>`;
    expect(html`<p title="${'"x"'}">${[inner, 1, "&"]}${undefined}${null}${false}</p>`.value).toBe(
      '<p title="&quot;x&quot;"><b>&lt;i&gt;</b>1&amp;</p>',
    );
    expect(new SafeHtml("<hr>").toString()).toBe("<hr>");
  });
});

describe("chart scales", () => {
  it.each([
    [0.7, 1],
    [1, 1],
    [1.3, 2],
    [3, 5],
    [7, 10],
    [1400, 2000],
    [0, 1],
  ])("niceStep(%s) is %s", (raw, step) => {
    expect(niceStep(raw)).toBe(step);
  });

  it("ticks from 0 to the first step at or above the maximum", () => {
    expect(ticks(5594)).toEqual([0, 2000, 4000, 6000]);
    expect(ticks(1000)).toEqual([0, 500, 1000]);
    expect(ticks(1)).toEqual([0, 0.5, 1]);
  });
});

describe("html`...`", () => {
  it("escapes markup and strips control characters from every value", () => {
    const hostile = "a\u001b[2J\u001b]0;title\u0007b\u009b31m<script>\u202e\r\nc";
    const out = html`<td>${hostile}</td>`.value;
    expect(out).toBe("<td>ab&lt;script&gt;\nc</td>");
    const controls = [...out].filter((c) => {
      const n = c.charCodeAt(0);
      return (n < 0x20 && c !== "\n") || (n >= 0x7f && n <= 0x9f) || (n >= 0x202a && n <= 0x202e);
    });
    expect(controls).toEqual([]);
  });
});
