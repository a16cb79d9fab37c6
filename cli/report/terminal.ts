/**
 * The report in a terminal: the balance, a chart of daily spend with the budget's daily allowance
 * (asciichart), the month against the budget, the runway and each rule's verdict, in 80 columns.
 */
import { plot } from "asciichart";
import { Help } from "commander";
import type { Colors } from "./colors";
import { findingBlock } from "./findings";
import type { Report } from "./model";
import { axisNumber, balanceText, dataNotes, dayLabel, monthLabel, reportReasons, summarize } from "./words";

/** TerminalOptions choose colors and the width (80 columns unless told). */
export interface TerminalOptions {
  colors: Colors;
  width?: number;
}

const ALLOWANCE_MARK = " ◂ budget";
const CHART_HEIGHT = 12;
const MAX_POINTS = 60;
const CYAN = "\x1b[36m";
const YELLOW = "\x1b[33m";
const MAGENTA = "\x1b[35m";
const DIM = "\x1b[2m";

/**
 * A chart point: one day, or the average day of a few when the period is longer than the chart. A
 * forecast day has no `amount` (NaN: asciichart leaves a gap) and the model's `p50` and `p90`.
 */
interface Point {
  day: string;
  amount: number;
  allowance: number | null;
  p50?: number;
  p90?: number;
}

/**
 * points fits the days into at most `max` columns: groups of `per` days, each the average of its days.
 * @internal
 */
export function chartPoints(days: readonly Point[], max: number): { points: Point[]; per: number } {
  const per = Math.max(1, Math.ceil(days.length / max));
  const points: Point[] = [];
  // the average of the values a group has (NaN when none)
  const avg = (xs: (number | null | undefined)[]) => {
    const ys = xs.filter((x): x is number => typeof x === "number" && !Number.isNaN(x));
    return ys.length ? ys.reduce((a, b) => a + b, 0) / ys.length : Number.NaN;
  };
  for (let i = 0; i < days.length; i += per) {
    const group = days.slice(i, i + per);
    const allowance = avg(group.map((d) => d.allowance));
    const point: Point = {
      day: group[0]!.day,
      amount: avg(group.map((d) => d.amount)),
      allowance: Number.isNaN(allowance) ? null : allowance,
    };
    if (group.some((d) => d.p50 !== undefined)) {
      point.p50 = avg(group.map((d) => d.p50));
      point.p90 = avg(group.map((d) => d.p90));
    }
    points.push(point);
  }
  return { points, per };
}

/**
 * axisRow lays day labels under the chart's columns without overlaps: the last day first, then the
 * first day of each month (the month alone when columns group days), then the first day of the period
 * when there is room.
 */
function axisRow(points: Point[], left: number, grouped: boolean, lastDay: string): string {
  const cells: string[] = [];
  const place = (col: number, text: string) => {
    const start = left + col;
    for (let i = start - 1; i < start + text.length + 1; i++) if (cells[i] !== undefined) return;
    [...text].forEach((ch, i) => {
      cells[start + i] = ch;
    });
  };
  const last = points.length - 1;
  if (last < 0) return "";
  const lastLabel = dayLabel(grouped ? lastDay : points[last]!.day);
  place(Math.max(0, last - lastLabel.length + 1), lastLabel);
  points.forEach((p, i) => {
    if (i === 0 || p.day.slice(0, 7) === points[i - 1]!.day.slice(0, 7)) return;
    place(i, grouped ? monthLabel(p.day) : dayLabel(p.day));
  });
  place(0, dayLabel(points[0]!.day));
  return Array.from(cells, (ch) => ch ?? " ")
    .join("")
    .trimEnd();
}

/**
 * spendChart draws daily spend as a line, and the daily allowance (monthly budget / days in the month)
 * as a second line marked `◂ budget` on the right, at most `width` columns wide.
 * @internal
 */
export function spendChart(r: Report, c: Colors, width: number): string[] {
  // the model's forecast to the month's end continues the chart: its median and its 90 % bound
  const ahead: Point[] = r.forecastDays
    .filter((d) => d.p90 !== null)
    .map((d) => ({
      day: d.day,
      amount: Number.NaN,
      allowance: d.allowance,
      p50: d.amount,
      p90: d.p90 ?? d.amount,
    }));
  const all: Point[] = [...r.days, ...ahead];
  const rawMax = Math.max(
    0,
    ...r.days.map((d) => d.amount),
    ...all.map((d) => d.allowance ?? 0),
    ...ahead.map((d) => d.p90 ?? 0),
  );
  // The labels' width bounds the room for columns; the longest label is the top of the raw data's scale.
  const labelWidth = Math.max(axisNumber(rawMax > 0 ? rawMax : 1, rawMax).length, 4);
  // a spike can stretch the scale until the allowance's row is labelled more than a quarter away from
  // it: the mark then carries the allowance's own figure, and needs room for it
  const lastAllowance = all[all.length - 1]?.allowance ?? null;
  const rowValue = (v: number) => (Math.round((v * CHART_HEIGHT) / rawMax) * rawMax) / CHART_HEIGHT;
  const exact =
    lastAllowance !== null &&
    lastAllowance > 0 &&
    Math.abs(rowValue(lastAllowance) - lastAllowance) > lastAllowance / 4;
  const mark = exact ? `${ALLOWANCE_MARK} ${axisNumber(lastAllowance, lastAllowance)}` : ALLOWANCE_MARK;
  const room = width - labelWidth - 2 - mark.length;
  const { points, per } = chartPoints(all, Math.max(10, Math.min(MAX_POINTS, room)));
  if (r.days.length === 0) return ["            (no days in the period)"];
  const finite = (x: number | null | undefined) => (typeof x === "number" && !Number.isNaN(x) ? x : 0);
  const pointMax = Math.max(
    0,
    ...points.map((p) => finite(p.amount)),
    ...points.map((p) => finite(p.allowance)),
    ...points.map((p) => finite(p.p90)),
  );
  const top = pointMax > 0 ? pointMax : 1;
  const hasAllowance = points.some((p) => p.allowance !== null);
  const hasForecast = points.some((p) => p.p50 !== undefined);
  // The allowance goes first so that the spend, drawn after it, stays visible where they meet. The
  // forecast's lines (its 90 % bound, then its median) run over the past days too, under the spend,
  // which is drawn last and stops at today: asciichart draws no gaps, but series of any length.
  const past = points.filter((p) => !Number.isNaN(p.amount));
  const series: number[][] = [];
  const colors: string[] = [];
  if (hasAllowance) {
    series.push(points.map((p) => p.allowance ?? 0));
    colors.push(YELLOW);
  }
  if (hasForecast) {
    const after = (q: "p50" | "p90") => points.map((p) => (Number.isNaN(p.amount) ? finite(p[q]) : p.amount));
    series.push(after("p90"), after("p50"));
    colors.push(DIM, MAGENTA);
  }
  series.push(past.map((p) => p.amount));
  colors.push(CYAN);
  const chart = plot(series, {
    min: 0,
    max: top,
    height: CHART_HEIGHT,
    // the bottom row's label can come out as -0
    format: (x) => axisNumber(Math.abs(x) < 1e-9 ? 0 : x, top).padStart(labelWidth),
    colors: c.isColorSupported ? colors : undefined,
  });
  const lines = chart.split("\n").map((l) => l.trimEnd());
  // asciichart puts value v on row height - round(v * height / max) when min is 0. It marks the row
  // of the value 0 with ┼ but counts rows from the top, so that mark lands on the top row; the
  // series' own ┼ marks (their first values) are on their rows.
  const rowOf = (v: number) => CHART_HEIGHT - Math.round((v * CHART_HEIGHT) / top);
  if (!series.some((s) => rowOf(s[0] ?? 0) === 0) && lines[0]) lines[0] = lines[0].replace("┼", "┤");
  if (hasAllowance) {
    const row = rowOf(points[points.length - 1]!.allowance ?? 0);
    const at = lines[row];
    if (at !== undefined) {
      const pad = " ".repeat(Math.max(0, labelWidth + 2 + points.length - visibleLength(at)));
      lines[row] = `${at}${pad}${c.yellow(mark)}`;
    }
  }
  lines.push(axisRow(points, labelWidth + 2, per > 1, all[all.length - 1]?.day ?? r.to));
  if (per > 1) lines.push(`${" ".repeat(labelWidth + 2)}each column: ${per} days, spend per day averaged`);
  if (hasForecast)
    lines.push(
      `${" ".repeat(labelWidth + 2)}after ${dayLabel(r.to)}: the forecast, its median and above it its 90 % bound`,
    );
  return lines;
}

/**
 * monthBar draws the month as one bar to the month's end: █ spent, ▓ up to the median forecast, ▒ up to
 * p80, ░ up to p90 (the band), │ the budget. Nothing without a model forecast.
 * @internal
 */
export function monthBar(r: Report, c: Colors, width: number): string[] {
  const f = r.evaluation.figures;
  const q = r.config.forecastMethod === "model" ? f.forecast.monthEnd : null;
  if (!q) return [];
  const budget = r.config.monthlyBudget;
  const cols = Math.max(20, width - 14);
  const max = Math.max(q.p90, budget ?? 0, f.monthToDate, 0.01) * 1.04;
  const at = (v: number) => Math.min(cols - 1, Math.max(0, Math.round((v / max) * cols)));
  const cells: string[] = [];
  for (let i = 0; i < cols; i++) {
    if (i < at(f.monthToDate)) cells.push(c.cyan("█"));
    else if (i < at(q.p50)) cells.push(c.cyan("▓"));
    else if (i < at(q.p80)) cells.push(c.yellow("▒"));
    else if (i < at(q.p90)) cells.push(c.yellow("░"));
    else cells.push(" ");
  }
  if (budget !== undefined) cells[at(budget)] = f.forecastMonthEnd > budget ? c.red("│") : c.green("│");
  const key = `█ spent ▓ median ▒ 80 % ░ 90 %${budget === undefined ? "" : " │ budget"}`;
  return [`${" ".repeat(12)}${cells.join("").trimEnd()}`, `${" ".repeat(12)}${c.dim(key)}`];
}

/** visibleLength is a line's width without ANSI color codes. */
export function visibleLength(s: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
  return s.replace(/\x1b\[[0-9;]*m/g, "").length;
}

/** A joiner that stands in for the space of "90 %" while wrapping: not whitespace, as wide as a space. */
const JOIN = "\u2060";

/**
 * boxWrap breaks text into lines of at most `width` columns, never between a number and its "%"
 * ("90 %" stays on one line).
 * @internal
 */
export function boxWrap(text: string, width: number): string[] {
  return new Help()
    .boxWrap(text.replace(/(\d) %/g, `$1${JOIN}%`), width)
    .split("\n")
    .map((l) => l.replaceAll(JOIN, " "));
}

/** wrap breaks a sentence into lines of at most `width` columns, each indented by `indent`. */
function wrap(text: string, indent: number, width: number): string[] {
  return boxWrap(text, width - indent).map((l) => `${" ".repeat(indent)}${l}`);
}

/** reasonLines lists why the forecast moved under "Why", one bullet a reason; nothing without a reason. */
function reasonLines(reasons: string[], label: (t: string) => string, width: number): string[] {
  return reasons.flatMap((text, i) => {
    const [first, ...rest] = boxWrap(text, width - 14);
    return [
      `${i === 0 ? label("Why") : " ".repeat(12)}· ${first ?? ""}`,
      ...rest.map((l) => `${" ".repeat(14)}${l}`),
    ];
  });
}

/**
 * renderTerminal lays the report out for a terminal: plain text unless `colors` is enabled; every
 * line fits in `width` (80) columns.
 *
 * @example process.stdout.write(renderTerminal(report, { colors: palette(useColor(process.stdout)) }));
 */
export function renderTerminal(r: Report, opts: TerminalOptions): string {
  const c = opts.colors;
  const width = opts.width ?? 80;
  const s = summarize(r);
  const label = (t: string) => c.bold(t.padEnd(12));
  const row = (name: string, text: string) => {
    const [first, ...rest] = boxWrap(text, width - 12);
    return [`${label(name)}${first ?? ""}`, ...rest.map((l) => `${" ".repeat(12)}${l}`)];
  };
  const verdictTint = { pass: c.green, fail: c.red, none: c.yellow }[r.evaluation.verdict];
  const out: string[] = [
    c.bold(`costgate report · ${s.title}`),
    ...wrap(
      `${s.period} · ${r.asOf ? "as at" : "made"} ${r.generatedAt.slice(0, 16).replace("T", " ")} UTC`,
      0,
      width,
    ).map((l) => c.dim(l)),
    "",
    ...row("Balance", balanceText(r)),
    "",
    ...row(
      "Daily spend",
      s.allowance
        ? `${r.days.length} days; ◂ budget marks the daily allowance, ${s.allowance}`
        : `${r.days.length} days; no monthly budget set`,
    ),
    ...spendChart(r, c, width),
    ...dataNotes(r.consumption).flatMap((n) => row("Note", n)),
    "",
    ...row("This month", s.monthToDate),
    ...row("Forecast", s.forecast),
    ...monthBar(r, c, width),
    ...row("Method", s.method),
    ...reasonLines(reportReasons(r), label, width),
    ...row("Runway", s.runway),
    "",
    `${label("Rules")}${verdictTint(c.bold(s.verdict))}`,
    ...r.evaluation.findings.flatMap((f) => findingBlock(f, c, (t) => wrap(t, 8, width))),
  ];
  return `${out.join("\n")}\n`;
}
