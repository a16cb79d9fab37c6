/**
 * The HTML report's charts as inline SVG: daily spend (one bar per day) with the budget allowance and
 * the forecast to the month's end (median bars, the 80–90 % band shaded), and the month against the
 * budget with the same band.
 *
 * The markup is built here from two linear scales rather than by a charting library, on purpose:
 * vega (the one maintained renderer that writes SVG on Node without a DOM) is ESM-only since v6 and
 * several megabytes with its dependencies; Observable Plot, Chart.js, ApexCharts, Chartist and
 * Frappe need a DOM or a canvas; d3-scale and d3-shape v4/v3 are ESM-only, which this CommonJS build
 * would have to load through a dynamic import that TypeScript rewrites to require(). Two scales,
 * "nice" ticks and rectangles are a few lines; nothing here parses, lays out text or animates.
 */
import type { Quantile } from "../../provider/budget/config";
import type { QuantileFigures } from "../../provider/budget/types";
import { formatMoney as money } from "../../provider/money";
import { html, type SafeHtml } from "./html-escape";
import type { Report } from "./model";
import { axisNumber, dayLabel, reasonTexts } from "./words";

/** quantileLabel names the median, p80 and p90 under the month bar, the one the gate judges said so. */
function quantileLabel(q: QuantileFigures, judged: Quantile): string {
  const names: Record<Quantile, string> = { p50: "median", p80: "p80", p90: "p90" };
  return (["p50", "p80", "p90"] as const)
    .map((k) => `${names[k]} ${money(q[k])}${k === judged ? " (judged)" : ""}`)
    .join(" · ");
}

/** niceStep rounds a raw tick step up to 1, 2 or 5 times a power of ten. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/** ticks are the y-axis values from 0 to the first step at or above `max`, about `count` of them. */
export function ticks(max: number, count = 4): number[] {
  const step = niceStep(max / count);
  const out: number[] = [];
  for (let v = 0; v < max + step / 2 && out.length <= count * 3; v += step) out.push(v);
  if ((out[out.length - 1] ?? 0) < max) out.push((out[out.length - 1] ?? 0) + step);
  return out;
}

const f1 = (n: number) => Math.round(n * 10) / 10;

/**
 * spendChartSvg draws one bar per day of the period (`rect.bar[data-day]`), bars above the day's
 * allowance marked `over`, today's partial day marked `partial` and labelled "today, so far" (its charges
 * are not all in, so a short bar is not a drop), the forecast days to the month's end (`rect.forecast`),
 * the allowance as a step line (`path.allowance`) and today.
 */
export function spendChartSvg(r: Report): SafeHtml {
  const W = 960;
  const H = 320;
  const m = { top: 18, right: 84, bottom: 36, left: 72 };
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const all = [
    ...r.days.map((d) => ({ ...d, kind: "bar" as const })),
    ...r.forecastDays.map((d) => ({ ...d, bonuses: 0, kind: "forecast" as const })),
  ];
  const n = Math.max(1, all.length);
  const top = Math.max(
    1,
    ...all.map((d) => d.amount),
    ...all.map((d) => d.allowance ?? 0),
    ...r.forecastDays.map((d) => d.p90 ?? 0),
  );
  const yTicks = ticks(top);
  const yMax = yTicks[yTicks.length - 1] ?? top;
  const band = pw / n;
  const x = (i: number) => m.left + i * band;
  const y = (v: number) => m.top + ph - (v / yMax) * ph;
  const barW = Math.max(1, band * 0.78);
  const gap = (band - barW) / 2;

  const grid = yTicks.map(
    (t) => html`<g class="tick"><line x1="${m.left}" x2="${m.left + pw}" y1="${f1(y(t))}" y2="${f1(y(t))}"/>
<text x="${m.left - 8}" y="${f1(y(t) + 4)}" text-anchor="end">${axisNumber(t, yMax)}</text></g>`,
  );

  const partialDay = partialDayOf(r);
  const bars = all.map((d, i) => {
    const h = (d.amount / yMax) * ph;
    const over = d.allowance !== null && d.amount > d.allowance;
    const partial = d.kind === "bar" && d.day === partialDay;
    const cls = d.kind === "forecast" ? "forecast" : `bar${over ? " over" : ""}${partial ? " partial" : ""}`;
    const tip =
      d.kind === "forecast"
        ? `${dayLabel(d.day, true)}: forecast ${money(d.amount)}`
        : `${dayLabel(d.day, true)}${partial ? " (today, so far)" : ""}: ${money(d.amount)}${d.allowance !== null ? ` (allowance ${money(d.allowance)})` : ""}`;
    const rect = html`<rect class="${cls}" data-day="${d.day}" data-amount="${d.amount}" x="${f1(x(i) + gap)}" y="${f1(y(d.amount))}" width="${f1(barW)}" height="${f1(h)}"><title>${tip}</title></rect>`;
    if (!partial) return rect;
    return html`${rect}
<text class="partial-label" x="${f1(x(i) + gap + barW)}" y="${f1(Math.max(m.top + 22, y(d.amount) - 6))}" text-anchor="end">today, so far</text>`;
  });

  // The allowance is a step line: each month's budget over its own number of days.
  let allowancePath = "";
  let lastAllowance: number | null = null;
  all.forEach((d, i) => {
    if (d.allowance === null) return;
    const yy = f1(y(d.allowance));
    allowancePath +=
      lastAllowance === null ? `M${f1(x(i))} ${yy}` : d.allowance !== lastAllowance ? `V${yy}` : "";
    allowancePath += `H${f1(x(i + 1))}`;
    lastAllowance = d.allowance;
  });
  const allowance =
    lastAllowance === null
      ? ""
      : html`<path class="allowance" d="${allowancePath}"/>
<text class="allowance-label" x="${m.left + pw + 6}" y="${f1(y(lastAllowance) + 4)}">budget/day</text>`;

  // The model's band: p80 to p90 shaded (`path.band`), its median a line (`path.p50`), day by day.
  const ahead = r.forecastDays
    .map((d, k) => ({ d, i: r.days.length + k }))
    .filter(({ d }) => d.p80 !== null && d.p90 !== null);
  const mid = (i: number) => f1(x(i) + band / 2);
  const bandShape =
    ahead.length === 0
      ? ""
      : html`<path class="band" d="${`M${ahead.map(({ d, i }) => `${mid(i)} ${f1(y(d.p90 ?? 0))}`).join("L")}L${[
          ...ahead,
        ]
          .reverse()
          .map(({ d, i }) => `${mid(i)} ${f1(y(d.p80 ?? 0))}`)
          .join("L")}Z`}"><title>${`80–90 % band of the forecast to ${r.forecast.monthEnd}`}</title></path>
<path class="p50" d="${`M${ahead.map(({ d, i }) => `${mid(i)} ${f1(y(d.amount))}`).join("L")}`}"><title>${`median forecast to ${r.forecast.monthEnd}`}</title></path>`;

  // what moved the forecast, on its day: a step where the new level starts, a delay or a one-off on the day
  const model = r.evaluation.figures.forecast;
  const reasonTitles =
    r.config.forecastMethod === "model"
      ? reasonTexts(model, { currency: r.currency, today: r.forecast.today })
      : [];
  const reasonMarks = (reasonTitles.length > 0 ? (model.reasons ?? []) : []).map((reason, k) => {
    if (!("day" in reason)) return "";
    const i = all.findIndex((d) => d.day === reason.day);
    if (i < 0) return "";
    const at = f1(reason.kind === "step" ? x(i) : x(i) + band / 2);
    const tag =
      reason.kind === "step"
        ? html`
<text class="reason-label" x="${f1(x(i) + 3)}" y="${m.top + 22}">step</text>`
        : "";
    return html`<line class="reason-mark ${reason.kind}" data-day="${reason.day}" x1="${at}" x2="${at}" y1="${m.top}" y2="${m.top + ph}"><title>${reasonTitles[k] ?? ""}</title></line>${tag}`;
  });

  const todayX = x(r.days.length);
  const today =
    r.forecastDays.length > 0
      ? html`<line class="today" x1="${f1(todayX)}" x2="${f1(todayX)}" y1="${m.top}" y2="${m.top + ph}"/>
<text class="today-label" x="${f1(todayX + 4)}" y="${m.top + 10}">forecast</text>`
      : "";

  // Day labels on the 1st and the 15th of each month, and on the first day when it has room; at
  // least 80 px apart.
  const minGap = Math.ceil(80 / band);
  const wanted = all
    .map((d, i) => ({ d, i }))
    .filter(({ d }) => d.day.endsWith("-01") || d.day.endsWith("-15"));
  const first = all[0];
  if (first && (wanted.length === 0 || (wanted[0]?.i ?? 0) >= minGap)) wanted.unshift({ d: first, i: 0 });
  const placed: typeof wanted = [];
  for (const w of wanted)
    if (placed.length === 0 || w.i - placed[placed.length - 1]!.i >= minGap) placed.push(w);
  const xLabels = placed.map(
    ({
      d,
      i,
    }) => html`<g class="xtick"><line x1="${f1(x(i) + band / 2)}" x2="${f1(x(i) + band / 2)}" y1="${m.top + ph}" y2="${m.top + ph + 5}"/>
<text x="${f1(x(i) + band / 2)}" y="${m.top + ph + 20}" text-anchor="middle">${dayLabel(d.day, d.day.endsWith("-01-01") || i === 0)}</text></g>`,
  );

  const label = `Daily spend of project ${r.projectId} from ${r.from} to ${r.to}, one bar per day${
    r.allowanceToday !== null ? `, with the budget allowance of ${money(r.allowanceToday)} per day` : ""
  }${r.forecastDays.length ? ` and the forecast to ${r.forecast.monthEnd}` : ""}${ahead.length ? " (median per day, shaded from its 80 % to its 90 % bound)" : ""}.`;
  return html`<svg class="chart spend" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" xmlns="http://www.w3.org/2000/svg">
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern>
<pattern id="partial" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="5" height="5" class="partial-bg"/><line x1="0" y1="0" x2="0" y2="5" class="partial-line"/></pattern></defs>
<g class="grid">${grid}</g>
<g class="bars">${bars}</g>
${bandShape}
${allowance}
${reasonMarks}
${today}
<line class="axis" x1="${m.left}" x2="${m.left + pw}" y1="${m.top + ph}" y2="${m.top + ph}"/>
<g class="xaxis">${xLabels}</g>
</svg>`;
}

/**
 * partialDayOf is the day of a report whose charges are not all in: today, in a live report that shows
 * it; none in a replay (its last day is whole).
 * @internal
 */
export function partialDayOf(r: Report): string | null {
  const today = r.generatedAt.slice(0, 10);
  return !r.asOf && r.to === today ? today : null;
}

/**
 * budgetMeterSvg draws the month: spent so far, the forecast to the month's end, and the budget.
 */
export function budgetMeterSvg(r: Report): SafeHtml {
  const W = 960;
  const H = 76;
  const m = { left: 8, right: 8 };
  const f = r.evaluation.figures;
  const budget = r.config.monthlyBudget;
  const q = r.config.forecastMethod === "model" ? f.forecast.monthEnd : null;
  const median = q?.p50 ?? f.forecastMonthEnd;
  const scaleMax = Math.max(1, f.forecastMonthEnd, f.monthToDate, budget ?? 0, q?.p90 ?? 0) * 1.08;
  const x = (v: number) => m.left + (v / scaleMax) * (W - m.left - m.right);
  const barY = 26;
  const barH = 22;
  const over = budget !== undefined && f.forecastMonthEnd > budget;
  const budgetMark =
    budget === undefined
      ? ""
      : html`<line class="budget-mark" x1="${f1(x(budget))}" x2="${f1(x(budget))}" y1="${barY - 10}" y2="${barY + barH + 6}"/>
<text class="budget-label" x="${f1(x(budget))}" y="${barY - 14}" text-anchor="middle">budget ${money(budget)}</text>`;
  const label = `This month: ${money(f.monthToDate)} spent, ${money(median)} forecast by ${r.forecast.monthEnd}${
    q ? ` (80 % likely at most ${money(q.p80)}, 90 % at most ${money(q.p90)})` : ""
  }${budget !== undefined ? `, budget ${money(budget)}` : ""}.`;
  // the quantile the gate judges, marked on the bar and named in its label
  const judged = r.config.quantile;
  const judgedMark = q
    ? html`<line class="judged-mark" x1="${f1(x(q[judged]))}" x2="${f1(x(q[judged]))}" y1="${barY - 4}" y2="${barY + barH + 4}"><title>${`${judged}, the forecast the gate judges: ${money(q[judged])}`}</title></line>`
    : "";
  const bandRect = q
    ? html`<rect class="forecast-band" x="${f1(x(q.p80))}" y="${barY}" width="${f1(Math.max(1, x(q.p90) - x(q.p80)))}" height="${barH}"><title>${`80 % likely at most ${money(q.p80)}, 90 % at most ${money(q.p90)}`}</title></rect>`
    : "";
  return html`<svg class="chart meter" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" xmlns="http://www.w3.org/2000/svg">
<rect class="track" x="${m.left}" y="${barY}" width="${W - m.left - m.right}" height="${barH}" rx="3"/>
<rect class="forecast-extension${over ? " over" : ""}" x="${m.left}" y="${barY}" width="${f1(x(median) - m.left)}" height="${barH}" rx="3"/>
${bandRect}
<rect class="mtd" x="${m.left}" y="${barY}" width="${f1(x(f.monthToDate) - m.left)}" height="${barH}" rx="3"/>
${budgetMark}
<text class="meter-label" x="${m.left}" y="${barY + barH + 20}">spent ${money(f.monthToDate)}</text>
${judgedMark}
<text class="meter-label" x="${f1(x(q?.p90 ?? median))}" y="${barY + barH + 20}" text-anchor="end">${q ? quantileLabel(q, judged) : `forecast ${money(median)}`}</text>
</svg>`;
}
