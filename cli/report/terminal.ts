/**
 * The report in a terminal: the balance, a chart of daily spend with the budget's daily allowance
 * (asciichart), the month against the budget, the runway and each rule's verdict, in 80 columns.
 */
import { plot } from "asciichart";
import { Help } from "commander";
import type { Finding } from "../../provider/budget/types";
import { money } from "../format";
import type { Colors } from "./colors";
import type { Report } from "./model";
import { axisNumber, dayLabel, gated, monthLabel, statusWord, summarize } from "./words";

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

/** A chart point: one day, or the average day of a few when the period is longer than the chart. */
interface Point {
  day: string;
  amount: number;
  allowance: number | null;
}

/**
 * points fits the days into at most `max` columns: groups of `per` days, each the average of its days.
 * @internal
 */
export function chartPoints(days: Report["days"], max: number): { points: Point[]; per: number } {
  const per = Math.max(1, Math.ceil(days.length / max));
  const points: Point[] = [];
  for (let i = 0; i < days.length; i += per) {
    const group = days.slice(i, i + per);
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const allowances = group.map((d) => d.allowance).filter((a): a is number => a !== null);
    points.push({
      day: group[0]!.day,
      amount: avg(group.map((d) => d.amount)),
      allowance: allowances.length ? avg(allowances) : null,
    });
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
  const rawMax = Math.max(0, ...r.days.map((d) => d.amount), ...r.days.map((d) => d.allowance ?? 0));
  // The labels' width bounds the room for columns; the longest label is the top of the raw data's scale.
  const labelWidth = Math.max(axisNumber(rawMax > 0 ? rawMax : 1, rawMax).length, 4);
  // a spike can stretch the scale until the allowance's row is labelled more than a quarter away from
  // it: the mark then carries the allowance's own figure, and needs room for it
  const lastAllowance = r.days[r.days.length - 1]?.allowance ?? null;
  const rowValue = (v: number) => (Math.round((v * CHART_HEIGHT) / rawMax) * rawMax) / CHART_HEIGHT;
  const exact =
    lastAllowance !== null &&
    lastAllowance > 0 &&
    Math.abs(rowValue(lastAllowance) - lastAllowance) > lastAllowance / 4;
  const mark = exact ? `${ALLOWANCE_MARK} ${axisNumber(lastAllowance, lastAllowance)}` : ALLOWANCE_MARK;
  const room = width - labelWidth - 2 - mark.length;
  const { points, per } = chartPoints(r.days, Math.max(10, Math.min(MAX_POINTS, room)));
  if (points.length === 0) return ["            (no days in the period)"];
  const pointMax = Math.max(0, ...points.map((p) => p.amount), ...points.map((p) => p.allowance ?? 0));
  const top = pointMax > 0 ? pointMax : 1;
  const hasAllowance = points.some((p) => p.allowance !== null);
  // The allowance goes first so that the spend, drawn after it, stays visible where they meet.
  const series = hasAllowance
    ? [points.map((p) => p.allowance ?? 0), points.map((p) => p.amount)]
    : [points.map((p) => p.amount)];
  const chart = plot(series, {
    min: 0,
    max: top,
    height: CHART_HEIGHT,
    format: (x) => axisNumber(x, top).padStart(labelWidth),
    colors: c.isColorSupported ? (hasAllowance ? [YELLOW, CYAN] : [CYAN]) : undefined,
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
  lines.push(axisRow(points, labelWidth + 2, per > 1, r.days[r.days.length - 1]?.day ?? r.to));
  if (per > 1) lines.push(`${" ".repeat(labelWidth + 2)}each column: ${per} days, spend per day averaged`);
  return lines;
}

/** visibleLength is a line's width without ANSI color codes. */
export function visibleLength(s: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
  return s.replace(/\x1b\[[0-9;]*m/g, "").length;
}

/** wrap breaks a sentence into lines of at most `width` columns, each indented by `indent`. */
function wrap(text: string, indent: number, width: number): string[] {
  return new Help()
    .boxWrap(text, width - indent)
    .split("\n")
    .map((l) => `${" ".repeat(indent)}${l}`);
}

function findingLines(f: Finding, c: Colors, width: number): string[] {
  const word = statusWord(f);
  const tint =
    f.status === "pass"
      ? c.green
      : f.status === "fail"
        ? f.level === "mandatory"
          ? c.red
          : c.yellow
        : c.dim;
  const head = `  ${tint(word.padEnd(5))} ${c.bold(f.rule.padEnd(16))} ${c.dim(f.level)}`;
  return [head, ...wrap(f.message, 8, width).map((l) => (f.status === "skip" ? c.dim(l) : l))];
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
    const [first, ...rest] = new Help().boxWrap(text, width - 12).split("\n");
    return [`${label(name)}${first ?? ""}`, ...rest.map((l) => `${" ".repeat(12)}${l}`)];
  };
  const verdictTint = !gated(r) ? c.yellow : r.evaluation.verdict === "pass" ? c.green : c.red;
  const out: string[] = [
    c.bold(`costgate report · ${s.title}`),
    c.dim(`${s.period} · made ${r.generatedAt.slice(0, 16).replace("T", " ")} UTC`),
    "",
    ...row("Balance", `${money(r.balance.balance)}   bonuses ${money(r.balance.bonuses)}`),
    "",
    ...row(
      "Daily spend",
      s.allowance
        ? `${r.days.length} days; ◂ budget marks the daily allowance, ${s.allowance}`
        : `${r.days.length} days; no monthly budget set`,
    ),
    ...spendChart(r, c, width),
    "",
    ...row("This month", s.monthToDate),
    ...row("Forecast", s.forecast),
    ...row("Runway", s.runway),
    "",
    `${label("Rules")}${verdictTint(c.bold(s.verdict))}`,
    ...r.evaluation.findings.flatMap((f) => findingLines(f, c, width)),
  ];
  return `${out.join("\n")}\n`;
}
