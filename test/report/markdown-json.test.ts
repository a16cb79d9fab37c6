import { describe, expect, it } from "vitest";
import { renderJson } from "../../cli/report/json";
import { cell, renderMarkdown } from "../../cli/report/markdown";
import { happyReport } from "./fixtures";

describe("renderMarkdown", () => {
  const md = renderMarkdown(happyReport());
  const tableRows = (header: string) => {
    const lines = md.split("\n");
    const start = lines.indexOf(header);
    const rows: string[] = [];
    for (let i = start; i < lines.length && lines[i]!.startsWith("|"); i++) rows.push(lines[i]!);
    return rows;
  };

  it("heads with the verdict", () => {
    expect(md).toMatch(/^### (✅|❌) costgate: Project 4242 \(openstack\) — (PASS|FAIL): /);
  });

  it("has a table of the figures", () => {
    const rows = tableRows("| Figure | Value |");
    expect(rows[1]).toBe("| --- | ---: |");
    expect(rows.map((r) => r.split(" | ")[0])).toEqual([
      "| Figure",
      "| ---",
      "| Balance",
      "| Bonuses",
      "| Spent in the period",
      "| Month to date",
      "| Forecast by 30 Nov 2026",
      "| Forecast method",
      "| Monthly budget",
      "| Runway",
    ]);
    expect(md).toContain("| Balance | 30,000.00 |");
    expect(md).toContain("| Monthly budget | 30,000.00 |");
  });

  it("has one row per rule with its verdict, level and message", () => {
    const rows = tableRows("| Result | Rule | Level | Finding |").slice(2);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(
      /^\| (✅ PASS|❌ FAIL) \| `min-balance` \| mandatory \| Project 4242 has a balance/,
    );
    for (const r of rows) expect(r.split(" | ")).toHaveLength(4);
  });

  it("folds the days away", () => {
    expect(md).toContain("<details><summary>Charges per day (60 days)</summary>");
    expect(tableRows("| Day | Amount | Bonuses |")).toHaveLength(2 + 60 + 1);
    expect(md.trimEnd().endsWith("</details>")).toBe(true);
  });

  it("keeps pipes, markup and line breaks out of a cell", () => {
    expect(cell("a | b <img src=x>\nc")).toBe("a \\| b &lt;img src=x&gt; c");
  });
});

describe("renderJson", () => {
  it("gives one forecast, the one the gate judged, and names its method", () => {
    const j = JSON.parse(renderJson(happyReport()));
    expect(j.forecast).toMatchObject({
      forecast: j.evaluation.figures.forecastMonthEnd,
      method: "weekday-level",
      quantile: "p80",
    });
    expect(j.forecast.forecast).toBe(j.evaluation.figures.forecast.monthEnd.p80);
    expect(j.forecast.trailingMeanForecast).not.toBe(j.forecast.forecast);
    const flat = JSON.parse(
      renderJson(happyReport({ config: { monthlyBudget: 30000, forecastMethod: "trailing-mean" } })),
    );
    expect(flat.forecast).toMatchObject({ method: "trailing-mean", quantile: null });
    expect(flat.forecast.forecast).toBe(flat.evaluation.figures.forecastMonthEnd);
    // under 3 days of charges the model has no forecast, as the terminal says ("none yet")
    const young = JSON.parse(renderJson(happyReport({ days: 2 })));
    expect(young.forecast).toMatchObject({ forecast: null, method: "none", quantile: null });
  });

  it("has the balance, the consumption summary, the forecast and the evaluation", () => {
    const j = JSON.parse(renderJson(happyReport()));
    expect(Object.keys(j)).toEqual([
      "generatedAt",
      "projectId",
      "productId",
      "period",
      "balance",
      "asOf",
      "consumption",
      "forecast",
      "forecastDays",
      "allowanceToday",
      "config",
      "evaluation",
      "verdict",
      "currency",
    ]);
    expect(j.period).toEqual({
      from: "2026-09-24",
      to: "2026-11-22",
      periodFrom: "2026-09-24T00:00:00.000Z",
      periodTo: "2026-11-22T23:59:59.999Z",
    });
    expect(j.balance).toMatchObject({ projectId: 4242, productId: 1, balance: 30000, bonuses: 1200 });
    expect(j.consumption).toMatchObject({ total: { amount: 55600 }, days: 60 });
    expect(j.consumption.items).toHaveLength(60);
    expect(j.forecast).toMatchObject({ today: "2026-11-22", monthEnd: "2026-11-30", daysLeft: 8 });
    expect(j.config).toMatchObject({
      monthlyBudget: 30000,
      minBalance: 10000,
      minRunwayDays: 14,
      spikeFactor: 2,
    });
    expect(j.evaluation.verdict).toMatch(/^(pass|fail)$/);
    expect(j.evaluation.findings).toHaveLength(4);
    expect(j.evaluation.figures).toMatchObject({ balance: 30000, monthToDate: 22000 });
  });

  it("writes an infinite runway as null", () => {
    const j = JSON.parse(renderJson(happyReport({ amount: () => 0 })));
    expect(j.evaluation.figures.runwayDays).toBeNull();
  });
});
