/**
 * Writes a report where it was asked for: the terminal report, Markdown or JSON on stdout, and the HTML
 * file.
 */
import { writeFileAtomic } from "../files";
import { palette } from "./colors";
import { renderHtml } from "./html";
import { renderJson } from "./json";
import { renderMarkdown } from "./markdown";
import type { Report } from "./model";
import { renderTerminal } from "./terminal";

/** Where and how a report goes. */
export interface OutputOptions {
  format: "terminal" | "markdown" | "json";
  /** Absolute path of the HTML file to write, if any. */
  html?: string;
  /** Color the terminal report. */
  color: boolean;
  out: (s: string) => void;
  /** Where notes go ("HTML report written to ..."): stdout for the terminal report, else stderr. */
  note?: (s: string) => void;
}

/**
 * emitReport writes the report to stdout in the chosen format and the HTML file when asked: whole, by a
 * rename, or a FileWriteError with the old file unchanged.
 */
export function emitReport(r: Report, o: OutputOptions): void {
  if (o.format === "json") o.out(renderJson(r));
  else if (o.format === "markdown") o.out(renderMarkdown(r));
  else o.out(renderTerminal(r, { colors: palette(o.color) }));
  if (o.html) {
    writeFileAtomic(o.html, renderHtml(r), "--html");
    const note = o.note ?? (o.format === "terminal" ? o.out : (s: string) => process.stderr.write(s));
    note(`${o.format === "terminal" ? "\n" : ""}HTML report written to ${o.html}\n`);
  }
}
