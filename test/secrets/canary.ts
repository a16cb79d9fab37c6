/**
 * Canaries: random secrets pushed through a surface, then looked for in everything it produced —
 * whole, in part (a random slice, so a truncated or re-prefixed value is still caught) and in the
 * encodings a value takes on its way out (URL, base64, JSON's \u escapes).
 */
import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import { expect } from "vitest";
import type { Emulator } from "../../emulator";

/** canary makes a random value that is easy to recognise: `canary-<label>-<uuid>`. */
export function canary(label: string): string {
  return `canary-${label}-${randomUUID()}`;
}

/**
 * hardCanary is a canary with the characters that encodings change: `"`, `\`, `+`, `/`, `=`, spaces
 * and (unless `ascii`, for a header value) non-ASCII letters.
 */
export function hardCanary(label: string, ascii = false): string {
  const [a, b, c] = randomUUID().split("-");
  return `canary-${label}-"${a}\\ ${b}+/=${ascii ? "x" : "ä€"} ${c}=`;
}

/**
 * The stable part of base64 (or base64url) text holding `bytes` at byte offset `o` (0, 1 or 2) of a
 * larger blob: the characters that depend on the value's bytes alone.
 */
function base64Core(bytes: Buffer, o: number, url: boolean): string {
  const enc = Buffer.concat([Buffer.alloc(o), bytes]).toString(url ? "base64url" : "base64");
  const whole = Math.floor((o + bytes.length) / 3) * 4;
  return enc.slice(o === 0 ? 0 : 4, whole);
}

/** The forms a secret is looked for in. */
function forms(value: string): { form: string; text: string }[] {
  // The random part: after a `canary-<label>-` or Fernet `gAAAAAB` prefix.
  const random = value.replace(/^canary-[^-]+-|^gAAAAAB/, "");
  const bytes = Buffer.from(value, "utf8");
  const json = JSON.stringify(value).slice(1, -1);
  const out = [
    { form: "whole", text: value },
    { form: "head", text: random.slice(0, 16) },
    { form: "tail", text: random.slice(-16) },
    { form: "url-encoded", text: encodeURIComponent(value) },
    {
      form: "url-encoded (lower-case hex)",
      text: encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (p) => p.toLowerCase()),
    },
    { form: "form-encoded", text: new URLSearchParams({ v: value }).toString().slice(2) },
    { form: "base64", text: bytes.toString("base64").slice(0, 24) },
    { form: "base64url", text: bytes.toString("base64url").slice(0, 24) },
    ...[0, 1, 2].flatMap((o) => [
      { form: `base64 in a blob at offset ${o}`, text: base64Core(bytes, o, false).slice(0, 24) },
      { form: `base64url in a blob at offset ${o}`, text: base64Core(bytes, o, true).slice(0, 24) },
    ]),
    { form: "hex", text: bytes.toString("hex").slice(0, 32) },
    { form: "hex (upper case)", text: bytes.toString("hex").toUpperCase().slice(0, 32) },
    { form: "json", text: json },
    { form: "json twice", text: JSON.stringify(json).slice(1, -1) },
    {
      form: "json-ascii",
      text: JSON.stringify(value)
        .replace(/[^\x20-\x7e]/g, escapeU)
        .slice(1, -1),
    },
    { form: "html", text: value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;") },
  ];
  return out.filter((f, i) => f.text.length >= 12 && out.findIndex((g) => g.text === f.text) === i);
}

function escapeU(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** errorTexts is everything a caller could print of an error: message, stack, JSON and inspect, down the cause chain. */
export function errorTexts(err: unknown): string[] {
  const out = [inspect(err, { depth: Infinity }), inspect(err, { depth: Infinity, showHidden: true })];
  let cur: unknown = err;
  for (let i = 0; i < 8 && cur !== undefined && cur !== null; i++) {
    if (cur instanceof Error) out.push(cur.message, cur.stack ?? "", String(cur));
    out.push(JSON.stringify(cur) ?? "");
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

/**
 * CanaryScan holds the canaries of a suite and counts, per surface, how many texts were scanned
 * for how many canaries. `expectClean` fails naming the surface, the canary and the form found.
 */
export class CanaryScan {
  private readonly canaries = new Map<string, string>();
  readonly tally = new Map<string, { texts: number; canaries: Set<string> }>();

  /** add registers a canary (the issued token, say, once known). */
  add(name: string, value: string): string {
    if (value.length < 12) throw new Error(`canary ${name} is too short to look for`);
    this.canaries.set(name, value);
    return value;
  }

  /** get returns a canary by name. */
  get(name: string): string {
    const v = this.canaries.get(name);
    if (v === undefined) throw new Error(`no canary ${name}`);
    return v;
  }

  /** leaks lists each canary found in the texts, with its form and some context. */
  leaks(texts: string | string[], only?: string[]): string[] {
    const all = Array.isArray(texts) ? texts : [texts];
    const found: string[] = [];
    for (const [name, value] of this.canaries) {
      if (only && !only.includes(name)) continue;
      for (const { form, text } of forms(value)) {
        for (const t of all) {
          const at = t.indexOf(text);
          if (at >= 0) found.push(`${name} (${form}) in …${t.slice(Math.max(0, at - 60), at + 20)}…`);
        }
      }
    }
    return found;
  }

  /** expectClean asserts that no canary (or only those in `only`) is in the texts of `surface`. */
  expectClean(surface: string, texts: string | string[], only?: string[]): void {
    const all = Array.isArray(texts) ? texts : [texts];
    const t = this.tally.get(surface) ?? { texts: 0, canaries: new Set<string>() };
    for (const name of only ?? this.canaries.keys()) t.canaries.add(name);
    this.tally.set(surface, { texts: t.texts + all.length, canaries: t.canaries });
    expect(this.leaks(all, only), `a canary leaked into ${surface}`).toEqual([]);
  }

  /** summary is one line per surface: the distinct canaries looked for and the texts scanned. */
  summary(): string {
    return [...this.tally]
      .map(
        ([s, t]) => `${s}: ${t.canaries.size} canaries in ${t.texts} texts (${[...t.canaries].join(", ")})`,
      )
      .join("\n");
  }
}

/**
 * addBillingCanaries makes a canary console access token the emulator accepts (role Accountant),
 * registered as "billingToken", and a canary it does not know, as "wrong"; returns the accepted one.
 */
export function addBillingCanaries(scan: CanaryScan, emu: Emulator): string {
  const token = scan.add("billingToken", canary("billing"));
  emu.seed.billing.tokens.push({ token, name: "canary", role: "Accountant" });
  scan.add("wrong", canary("wrong"));
  return token;
}

/** printTally writes the scan's counts on stderr when CANARY_TALLY=1 (for the report). */
export function printTally(file: string, scan: CanaryScan): void {
  if (process.env.CANARY_TALLY === "1") process.stderr.write(`[canaries] ${file}\n${scan.summary()}\n`);
}
