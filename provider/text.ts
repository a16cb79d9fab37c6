/**
 * Text that came from elsewhere — an endpoint, a proxy, a file, a config — made fit to print: control
 * characters out, every credential of the run out in the forms it travels in, and a bounded length.
 * SECURITY.md ("What is printed") states what is promised; test/hostile/secrets.test.ts holds it to it.
 */

/** Secrets shorter than this are ignored: cutting them would shred the text. */
const MIN_SECRET = 3;
/** The shortest fragment of a secret cut out (a secret shorter than this is cut whole only). */
const MIN_FRAGMENT = 6;
/** Any fragment this long is cut, whatever the secret's length. */
const MAX_FRAGMENT = 12;
/** Base64 and hex runs at least this long are decoded and looked into. */
const MIN_RUN = 8;
/** How deep encoded runs inside decoded runs are looked into (base64 of JSON holding base64, ...). */
const MAX_DEPTH = 2;
/** At most this much of a text is read; the rest is dropped (an endpoint's text is shown bounded anyway). */
const MAX_SCANNED = 16 * 1024;
/** How much of an endpoint's text is read (it is shown in {@link ENDPOINT_TEXT_MAX} characters at most). */
const ENDPOINT_TEXT_SCANNED = 4096;
/** How many secrets the run remembers (the most recent are kept). */
const MAX_REMEMBERED = 256;

/** What replaces a secret, or a run of text that decodes to one. */
export const REDACTED = "<redacted>";

/** The longest text from an endpoint that is shown, in characters, before "…". */
export const ENDPOINT_TEXT_MAX = 300;

const remembered = new Set<string>();

/**
 * rememberSecret adds credentials of this run (a password, an application credential secret, an
 * access token, an issued token, a proxy's password) to those every cleaned text is scrubbed of.
 * Values shorter than 3 characters are ignored. `send` calls it for every credential it sends.
 *
 * @example rememberSecret(process.env.COSTGATE_BILLING_TOKEN);
 */
export function rememberSecret(...values: (string | undefined)[]): void {
  for (const v of values) {
    if (typeof v !== "string" || v.length < MIN_SECRET || remembered.has(v)) continue;
    remembered.add(v);
    if (remembered.size > MAX_REMEMBERED) {
      const oldest = remembered.values().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
  }
}

/** knownSecrets lists the credentials of this run that texts are scrubbed of. @internal */
export function knownSecrets(): string[] {
  return [...remembered];
}

/** Options of {@link cleanText}. */
export interface CleanOptions {
  /** Secrets to cut, besides those the run remembers ({@link rememberSecret}). */
  secrets?: readonly string[];
  /** The longest text returned, in characters; longer text ends with "…". Default: no bound. */
  maxLength?: number;
  /** Keep line breaks (`\n`); otherwise the text becomes one line. Default false. */
  multiline?: boolean;
  /**
   * What to do when the text holds a secret in any form: `"redact"` cuts each place out (the default),
   * `"withhold"` shows nothing of the text but its length.
   */
  onSecret?: "redact" | "withhold";
}

// ESC sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (... ST), and
// two-character escapes; their 8-bit forms (CSI U+009B, OSC U+009D, DCS U+0090, ...).
const ESCAPE_SEQUENCES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escapes is the point
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?|\x9b[0-?]*[ -/]*[@-~]?|[\x9d\x90\x98\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;
// C0 but tab and line feed, DEL, C1, and the characters that reorder or break lines in a terminal:
// bidirectional embeddings, overrides and isolates, marks, line and paragraph separators, BOM.
const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Any character stripControls changes or removes: a text without one is left as it is. */
const MAY_STRIP =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

/**
 * stripControls removes terminal escape sequences and C0/C1 control characters (and bidirectional
 * overrides): a carriage return or a line separator becomes a space, a tab a space; line feeds stay
 * only when `multiline`.
 */
export function stripControls(text: string, multiline = false): string {
  let t = text.replace(/\r\n/g, "\n").replace(ESCAPE_SEQUENCES, "");
  t = t.replace(/[\r\t\v\f\u2028\u2029]/g, " ").replace(CONTROLS, "");
  return multiline ? t : t.replace(/\s*\n\s*/g, " ");
}

/**
 * cleanText makes a text from an endpoint, a proxy, a file or a config fit to print or to put in a
 * diagnostic: control characters out ({@link stripControls}), each secret of the run cut out in
 * every form {@link scrubSecrets} knows, one line unless `multiline`, at most `maxLength` characters.
 *
 * @example
 * cleanText("\x1b[2Jdenied: c2VjcmV0LXRva2Vu", { secrets: ["secret-token"] }); // "denied: <redacted>"
 */
export function cleanText(text: string, options: CleanOptions = {}): string {
  const scanned = String(text).slice(0, MAX_SCANNED);
  // most texts have nothing to strip and the run no secret: a report of thousands of rows cleans each cell
  const stripped = MAY_STRIP.test(scanned) ? stripControls(scanned, options.multiline === true) : scanned;
  const secrets =
    remembered.size === 0 && !options.secrets?.length ? [] : [...remembered, ...(options.secrets ?? [])];
  const scrubbed = secrets.length === 0 ? { text: stripped, found: false } : scrubSecrets(stripped, secrets);
  let out = scrubbed.text;
  if (scrubbed.found && options.onSecret === "withhold") {
    out = `(${stripped.length} characters not shown: they echo a credential)`;
  }
  const max = options.maxLength;
  if (max !== undefined && out.length > max) out = `${[...out].slice(0, max).join("").trimEnd()}…`;
  return out;
}

/**
 * endpointText is what costgate shows of a text an endpoint or a proxy sent (an error message, a
 * request id, a content type): one line of at most {@link ENDPOINT_TEXT_MAX} characters without
 * control characters; a text that holds a secret of the run in any form is not shown at all.
 */
export function endpointText(
  text: string,
  secrets: readonly string[] = [],
  maxLength = ENDPOINT_TEXT_MAX,
): string {
  // what is shown is short: reading more than a few times that decides nothing more
  return cleanText(String(text).slice(0, ENDPOINT_TEXT_SCANNED), {
    secrets,
    maxLength,
    onSecret: "withhold",
  });
}

/** The shortest fragment of a secret of this length that is cut. */
function fragmentLength(n: number): number {
  return n < MIN_FRAGMENT ? n : Math.max(MIN_FRAGMENT, Math.min(MAX_FRAGMENT, Math.ceil(n / 2)));
}

function escapeU(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** The textual forms a secret travels in: raw, JSON-escaped, URL-encoded, form-encoded, HTML-escaped. */
function textForms(s: string): string[] {
  const json = JSON.stringify(s).slice(1, -1);
  const jsonAscii = json.replace(/[^\x20-\x7e]/g, escapeU);
  const url = encodeURIComponent(s);
  const html = s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
  const forms = [
    s,
    json,
    jsonAscii,
    jsonAscii.replace(/\\u([0-9a-f]{4})/g, (_, h: string) => `\\u${h.toUpperCase()}`),
    json.replace(/\//g, "\\/"),
    url,
    url.replace(/%[0-9A-F]{2}/g, (p) => p.toLowerCase()),
    url.replace(/%20/g, "+"),
    new URLSearchParams({ s }).toString().slice(2),
    encodeURI(s),
    html,
    html.replace(/&quot;/g, "&#34;"),
  ];
  return [...new Set(forms)];
}

/** A matcher of every secret's forms and of their fragments, by fragment length. */
interface Matcher {
  windows: Map<number, Set<string>>;
}

function matcherFor(secrets: readonly string[], minFragment = MIN_FRAGMENT): Matcher {
  const windows = new Map<number, Set<string>>();
  // a secret is looked for as given and as text looks once its control characters are stripped
  const all = secrets.flatMap((s) => (typeof s === "string" ? [s, stripControls(s, true)] : []));
  for (const secret of new Set(all)) {
    if (secret.length < MIN_SECRET) continue;
    for (const form of textForms(secret)) {
      const k = Math.min(form.length, Math.max(minFragment, fragmentLength(secret.length)));
      const set = windows.get(k) ?? new Set<string>();
      for (let i = 0; i + k <= form.length; i++) set.add(form.slice(i, i + k));
      windows.set(k, set);
    }
  }
  return { windows };
}

/** marks lists the [start, end) ranges of `text` that hold a fragment of a secret form. */
function fragmentRanges(text: string, m: Matcher): [number, number][] {
  const out: [number, number][] = [];
  for (const [k, set] of m.windows) {
    for (let i = 0; i + k <= text.length; i++) {
      if (set.has(text.slice(i, i + k))) out.push([i, i + k]);
    }
  }
  return out;
}

const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;
const HEX_RUN = /[0-9A-Fa-f]{8,}/g;

/** decodings gives what a base64/base64url or hex run decodes to, at every alignment. */
function decodings(run: string, hex: boolean): string[] {
  const out: string[] = [];
  const offsets = hex ? [0, 1] : [0, 1, 2, 3];
  for (const o of offsets) {
    const part = run.slice(o);
    if (part.length < MIN_RUN) continue;
    const bytes = hex
      ? Buffer.from(part.slice(0, part.length - (part.length % 2)), "hex")
      : Buffer.from(part, "base64");
    out.push(bytes.toString("utf8"), bytes.toString("latin1"));
  }
  return out;
}

/** holds tells whether `text` holds a secret's form or fragment, directly or in an encoded run. */
function holds(text: string, m: Matcher, depth: number): boolean {
  if (fragmentRanges(text, m).length > 0) return true;
  return depth < MAX_DEPTH && encodedRanges(text, m, depth + 1).length > 0;
}

/** The ranges of base64 and hex runs that decode to text holding a secret. */
function encodedRanges(text: string, m: Matcher, depth: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [re, hex] of [
    [BASE64_RUN, false],
    [HEX_RUN, true],
  ] as const) {
    for (const r of text.matchAll(re)) {
      const run = r[0];
      if (run.length < MIN_RUN) continue;
      if (decodings(run, hex).some((d) => holds(d, m, depth))) out.push([r.index, r.index + run.length]);
    }
  }
  return out;
}

/** Views of a text after one more decoding: percent-decoded, JSON-unescaped, HTML entities read. */
function decodedViews(text: string): string[] {
  const views: string[] = [];
  if (/%[0-9A-Fa-f]{2}/.test(text)) {
    const pct = (t: string) =>
      t.replace(/(?:%[0-9A-Fa-f]{2})+/g, (seq) => {
        try {
          return decodeURIComponent(seq);
        } catch {
          return Buffer.from(seq.replace(/%/g, ""), "hex").toString("latin1");
        }
      });
    views.push(pct(text), pct(text.replace(/\+/g, " ")));
  }
  if (/\\[u"\\/]/.test(text)) {
    views.push(
      text
        .replace(/\\u([0-9A-Fa-f]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
        .replace(/\\(["\\/])/g, "$1"),
    );
  }
  if (/&(?:#\d+|#x[0-9a-f]+|[a-z]+);/i.test(text)) {
    views.push(
      text
        .replace(/&#x([0-9a-f]+);/gi, (_, h: string) =>
          String.fromCodePoint(Number.parseInt(h, 16) % 0x110000),
        )
        .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d) % 0x110000))
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&"),
    );
  }
  return views;
}

/**
 * scrubSecrets cuts each secret out of `text` in the forms it travels in: raw, JSON-escaped (`\"`,
 * `\\`, `\u00XX`), URL-encoded (encodeURIComponent, encodeURI and form `+`, either hex case),
 * HTML-escaped, and any fragment of these of min(12, half the secret) characters or more (6 at least;
 * a secret under 6 characters whole only); a base64/base64url or hex run (8 characters or more) whose
 * decoding, at any alignment and down two levels, holds a secret or such a fragment is cut whole.
 * When a decoded view of what is left (percent-decoded, JSON-unescaped, HTML entities read) still
 * holds one, the whole text is cut. `found` tells whether anything was.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): { text: string; found: boolean } {
  return scrubWith(text, matcherFor(secrets));
}

function scrubWith(text: string, m: Matcher): { text: string; found: boolean } {
  if (m.windows.size === 0) return { text, found: false };
  const ranges = [...fragmentRanges(text, m), ...encodedRanges(text, m, 1)].sort((a, b) => a[0] - b[0]);
  let out = text;
  if (ranges.length > 0) {
    // merge overlapping ranges; each merged range becomes one REDACTED
    const parts: string[] = [];
    let at = 0;
    let [start, end] = ranges[0] as [number, number];
    for (const [s, e] of ranges.slice(1)) {
      if (s <= end) {
        end = Math.max(end, e);
        continue;
      }
      parts.push(text.slice(at, start), REDACTED);
      at = end;
      [start, end] = [s, e];
    }
    parts.push(text.slice(at, start), REDACTED, text.slice(end));
    out = parts.join("");
  }
  if (decodedViews(out).some((v) => holds(v, m, 1))) return { text: REDACTED, found: true };
  return { text: out, found: ranges.length > 0 };
}

/** The most strings of a value {@link scrubValue} looks into; any further string is cut whole. */
const MAX_VALUE_STRINGS = 10_000;

/**
 * scrubValue is `value` (plain JSON data an endpoint sent: a token body's names, roles, audit ids,
 * catalog) with every string that holds a secret of the run (or of `secrets`) scrubbed as
 * {@link scrubSecrets} does, except that fragments shorter than 12 characters are left (a short
 * password must not shred a catalog URL that happens to share a few letters with it). Strings
 * without a secret, and the shape of the value, are kept. Data that is stored in plaintext (Pulumi
 * state) or printed goes through it.
 *
 * @example scrubValue({ user: { name: "you sent s3cret-password" } }, ["s3cret-password"]);
 * // { user: { name: "you sent <redacted>" } }
 */
export function scrubValue<T>(value: T, secrets: readonly string[] = []): T {
  const m = matcherFor([...remembered, ...secrets], MAX_FRAGMENT);
  if (m.windows.size === 0) return value;
  // the common case: nothing anywhere, found with one pass over the whole value
  const whole = JSON.stringify(value) ?? "";
  if (!scrubWith(whole, m).found) return value;
  let budget = MAX_VALUE_STRINGS;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return budget-- > 0 ? scrubWith(v, m).text : REDACTED;
    if (v === null || typeof v !== "object" || depth > 32) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrubWith(k, m).text, walk(x, depth + 1)]));
  };
  return walk(value, 0) as T;
}

/**
 * safeJson is `JSON.stringify` whose output holds no raw control or reordering character: JSON escapes
 * C0 itself; C1, DEL, line separators and bidirectional controls are written as `\uXXXX` too, so the
 * value parses back the same and no byte of it moves a terminal.
 */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? "").replace(
    /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g,
    escapeU,
  );
}
