/**
 * The HTML report: one self-contained file — inline CSS and SVG, no script, no font, no image, and a
 * Content-Security-Policy that lets the page load nothing else. It prints on A4.
 */
import type { Finding } from "../../provider/budget/types";
import { formatMoney as money } from "../../provider/money";
import { html, SafeHtml } from "./html-escape";
import type { Report } from "./model";
import { budgetMeterSvg, partialDayOf, spendChartSvg } from "./svg";
import { dataNotes, dayLabel, reportReasons, statusWord, summarize } from "./words";

const CSS = `
:root { --ink: #1d2433; --muted: #5b6478; --line: #d9dee8; --bg: #f6f7fb; --card: #fff;
  --bar: #3b82c4; --over: #d9573b; --allow: #c28a00; --pass: #1f8a4c; --fail: #c2331f; --skip: #7a8294; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 24px 40px; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 16px; margin-bottom: 18px; }
h1 { font-size: 24px; margin: 0; }
h1 .product { color: var(--muted); font-weight: 500; }
h2 { font-size: 16px; margin: 0 0 10px; }
.period { color: var(--muted); margin: 0; flex-basis: 100%; }
.verdict { margin-left: auto; padding: 4px 12px; border-radius: 999px; font-weight: 700; color: #fff; }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); } .verdict.none { background: #6b7280; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; margin: 0 0 18px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 0; }
.card dt { color: var(--muted); font-size: 13px; }
.card dd { margin: 2px 0 0; font-size: 20px; font-weight: 650; font-variant-numeric: tabular-nums; }
.card dd small { display: block; font-size: 12px; font-weight: 400; color: var(--muted); }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin-bottom: 18px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; color: var(--muted); font-size: 13px; margin: -4px 0 8px; padding: 0; list-style: none; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; border-radius: 2px; }
.legend .k-bar { background: var(--bar); } .legend .k-over { background: var(--over); }
.legend .k-forecast { background: repeating-linear-gradient(45deg, #c9d8ea 0 3px, #fff 3px 6px); border: 1px dashed var(--bar); }
.legend .k-allowance { height: 0; border-top: 2px dashed var(--allow); border-radius: 0; vertical-align: 3px; }
svg.chart { display: block; width: 100%; height: auto; font-size: 12px; }
svg .tick line { stroke: var(--line); } svg .tick text, svg .xtick text { fill: var(--muted); }
svg .xtick line, svg .axis { stroke: #9aa3b5; }
svg .bar { fill: var(--bar); } svg .bar.over { fill: var(--over); }
svg .bar.partial { fill: url(#partial); stroke: var(--bar); stroke-dasharray: 3 2; stroke-width: 1; }
svg .partial-bg { fill: #dbe7f4; } svg .partial-line { stroke: var(--bar); stroke-width: 2; }
svg .partial-label { fill: var(--muted); font-size: 11px; font-style: italic; }
svg .judged-mark { stroke: var(--ink); stroke-width: 2; }
.legend .k-partial { background: repeating-linear-gradient(-45deg, #dbe7f4 0 3px, var(--bar) 3px 5px); border: 1px dashed var(--bar); }
svg .forecast { fill: url(#hatch); stroke: var(--bar); stroke-dasharray: 2 2; stroke-width: 0.8; }
svg .hatch-bg { fill: #fff; } svg .hatch-line { stroke: #9dbbe0; stroke-width: 3; }
svg .allowance { fill: none; stroke: var(--allow); stroke-width: 2; stroke-dasharray: 6 4; }
svg .allowance-label { fill: var(--allow); font-weight: 600; }
svg .today { stroke: var(--muted); stroke-dasharray: 3 3; } svg .today-label { fill: var(--muted); }
svg .track { fill: #eef1f6; } svg .mtd { fill: var(--bar); }
svg .forecast-extension { fill: #a9c6e6; } svg .forecast-extension.over { fill: #efb3a5; }
svg .forecast-band, svg .band { fill: #f2c879; fill-opacity: 0.45; stroke: none; }
svg .p50 { fill: none; stroke: #1f4e79; stroke-width: 1.6; }
.legend .k-band { background: #f2c879; opacity: 0.6; }
svg .budget-mark { stroke: var(--allow); stroke-width: 3; } svg .budget-label { fill: var(--allow); font-weight: 600; }
svg .meter-label { fill: var(--muted); }
.runway { margin: 10px 0 0; color: var(--muted); }
h3.why { font-size: 14px; margin: 12px 0 4px; } ul.reasons { margin: 0; padding-left: 20px; color: var(--ink); }
svg .reason-mark { stroke: #7b3fa0; stroke-width: 1.5; stroke-dasharray: 4 3; } svg .reason-label { fill: #7b3fa0; font-size: 11px; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 13px; }
td.num, th.num { text-align: right; white-space: nowrap; }
.status { font-weight: 700; white-space: nowrap; }
.status.pass { color: var(--pass); } .status.fail { color: var(--fail); } .status.warn { color: var(--allow); }
.status.skip, .status.not-judged, .status.not-configured { color: var(--skip); }
tr.skip td, tr.not-judged td, tr.not-configured td { color: var(--skip); }
table.findings code { white-space: nowrap; }
table.data { font-size: 13px; }
table.data td.over { color: var(--over); font-weight: 600; }
table.data tfoot td { font-weight: 700; border-top: 2px solid var(--line); border-bottom: 0; }
footer { color: var(--muted); font-size: 12px; text-align: center; }
@media print {
  @page { size: A4; margin: 12mm; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  body { background: #fff; font-size: 11pt; }
  main { max-width: none; padding: 0; }
  section, .card { border-color: #bbb; box-shadow: none; }
  section { break-inside: avoid; padding: 10px 12px; }
  section.table { break-inside: auto; }
  thead { display: table-header-group; }
  tfoot { display: table-row-group; }
  tr { break-inside: avoid; }
  .cards { grid-template-columns: repeat(3, 1fr); }
}
`;

/** The stylesheet is this module's own constant text, not data: it goes in as is. */
const STYLE = new SafeHtml(CSS);

function statusCell(f: Pick<Finding, "status" | "level">): SafeHtml {
  const tint = f.status === "fail" && f.level !== "mandatory" ? "warn" : f.status;
  return html`<span class="status ${tint}">${statusWord(f)}</span>`;
}

/**
 * renderHtml writes the report as one self-contained HTML page: the headline figures, the daily spend
 * chart (one `rect.bar` per day, the allowance, the forecast), the month against the budget, the runway,
 * each rule's verdict and the table of days. Every value is escaped.
 *
 * @example writeFileSync("costgate-report.html", renderHtml(report));
 */
export function renderHtml(r: Report): string {
  const s = summarize(r);
  const f = r.evaluation.figures;
  const budget = r.config.monthlyBudget;
  const reasons = reportReasons(r);
  const runwayDays = f.runwayDays === null ? "∞" : `${f.runwayDays.toFixed(1)} days`;
  const q = r.config.forecastMethod === "model" ? f.forecast : null;
  const forecastCard = q?.monthEnd
    ? [
        "Forecast",
        money(q.monthEnd.p50),
        `median by ${dayLabel(r.forecast.monthEnd, true)}; p80 ${money(q.monthEnd.p80)}, p90 ${money(q.monthEnd.p90)}`,
      ]
    : q
      ? ["Forecast", "none yet", `${q.historyDays} days of history, 3 needed`]
      : ["Forecast", money(f.forecastMonthEnd), `by ${dayLabel(r.forecast.monthEnd, true)}`];
  const runwayCard = r.asOf
    ? ["Runway", "not known", "no balance in a replay"]
    : q?.runwayDays && f.runwayDays !== 0 && q.runwayDays.p50 < 100000
      ? [
          "Runway",
          `${q.runwayDays.p90.toFixed(1)}–${q.runwayDays.p50.toFixed(1)} days`,
          "p90 to median spend",
        ]
      : ["Runway", runwayDays, `at ${money(r.forecast.dailyRate)}/day`];
  const cards = [
    ...(r.asOf
      ? [["Balance", "not read", `a replay as of ${r.asOf}`]]
      : [
          [
            "Balance",
            money(r.balance.balance),
            `at ${r.balance.fetchedAt.slice(0, 16).replace("T", " ")} UTC`,
          ],
          ["Bonuses", money(r.balance.bonuses), ""],
        ]),
    ["Month to date", money(f.monthToDate), budget === undefined ? "" : `of ${money(budget)} budget`],
    forecastCard,
    runwayCard,
    [
      "Spent in period",
      money(r.consumption.total.amount),
      `${money(r.consumption.dailyAverage)}/day on average`,
    ],
  ].map(
    ([k, v, sub]) =>
      html`<dl class="card"><dt>${k}</dt><dd>${v}${sub ? html`<small>${sub}</small>` : ""}</dd></dl>`,
  );

  const findings = r.evaluation.findings.map(
    (x) =>
      html`<tr class="${x.status}"><td>${statusCell(x)}</td><td><code>${x.rule}</code></td><td>${x.level}</td><td>${x.message}</td></tr>`,
  );

  const rows = r.days.map((d) => {
    const over = d.allowance !== null && d.amount > d.allowance;
    return html`<tr><td>${d.day}</td><td class="num${over ? " over" : ""}">${money(d.amount)}</td><td class="num">${money(d.bonuses)}</td><td class="num">${d.allowance === null ? "–" : money(d.allowance)}</td></tr>`;
  });

  const legend = html`<ul class="legend">
<li><i class="k-bar"></i>spend per day</li>
${partialDayOf(r) ? html`<li><i class="k-partial"></i>today, so far (its charges are not all in)</li>` : ""}
${budget !== undefined ? html`<li><i class="k-over"></i>above the allowance</li><li><i class="k-allowance"></i>allowance: ${s.allowance}</li>` : ""}
${
  r.forecastDays.length === 0
    ? ""
    : r.forecastDays[0]?.p90 === null
      ? html`<li><i class="k-forecast"></i>forecast to ${dayLabel(r.forecast.monthEnd)} at ${money(r.forecast.dailyRate)}/day</li>`
      : html`<li><i class="k-forecast"></i>forecast to ${dayLabel(r.forecast.monthEnd)}: median per day</li><li><i class="k-band"></i>80–90 % band</li>`
}
</ul>`;

  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>costgate report · ${s.title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
<h1>${`Project ${r.projectId}`} <span class="product">(${r.product})</span></h1>
<p class="verdict ${r.evaluation.verdict}">${s.verdict}</p>
<p class="period">${s.period} · ${r.asOf ? "as at" : "made"} ${r.generatedAt.slice(0, 16).replace("T", " ")} UTC</p>
</header>
<div class="cards">${cards}</div>
<section class="spend">
<h2>Daily spend</h2>
${legend}
${spendChartSvg(r)}
${dataNotes(r.consumption).map((n) => html`<p class="notes"><strong>Note:</strong> ${n}.</p>`)}
${
  reasons.length > 0
    ? html`<h3 class="why">Why the forecast moved</h3>
<ul class="reasons">${reasons.map((t) => html`<li>${t}</li>`)}</ul>`
    : ""
}
</section>
<section class="month">
<h2>This month against the budget</h2>
${budgetMeterSvg(r)}
<p class="runway"><strong>This month:</strong> ${s.monthToDate}. <strong>Forecast:</strong> ${s.forecast}. <strong>Runway:</strong> ${s.runway}.</p>
<p class="method"><strong>How:</strong> ${s.method}.</p>
</section>
<section class="rules">
<h2>Rules</h2>
<table class="findings"><thead><tr><th>Result</th><th>Rule</th><th>Level</th><th>Finding</th></tr></thead>
<tbody>${findings}</tbody></table>
</section>
<section class="table">
<h2>Daily charges</h2>
<table class="data"><thead><tr><th>Day</th><th class="num">Amount</th><th class="num">Bonuses</th><th class="num">Allowance</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td>Total, ${r.days.length} days</td><td class="num">${money(r.consumption.total.amount)}</td><td class="num">${money(r.consumption.total.bonuses)}</td><td></td></tr></tfoot>
</table>
</section>
<footer>costgate report · project ${r.projectId} · ${r.generatedAt}</footer>
</main>
</body>
</html>
`;
  return page.value;
}
