/**
 * The scanner itself: it finds a canary whole, cut short, re-prefixed and encoded, and nothing else.
 */
import { describe, expect, it } from "vitest";
import { CanaryScan, canary } from "./canary";

describe("CanaryScan", () => {
  const scan = new CanaryScan();
  const pw = scan.add("password", canary("pässwörd"));
  const token = scan.add("token", `gAAAAAB${"Zx9_k2Qm".repeat(20)}`);

  it.each([
    ["whole", `password=${pw}`],
    ["cut short", `password=${pw.slice(0, 40)}…`],
    ["re-prefixed", pw.replace("canary-", "redacted-")],
    ["url-encoded", `?p=${encodeURIComponent(pw)}`],
    ["base64", Buffer.from(pw).toString("base64")],
    [
      "JSON with \\u escapes",
      JSON.stringify({ pw }).replace(
        /[^\x20-\x7e]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      ),
    ],
    ["a token's tail", `X-Subject-Token: …${token.slice(-20)}`],
  ])("finds a canary %s", (_how, text) => {
    expect(scan.leaks(text).length).toBeGreaterThan(0);
  });

  it("finds nothing in unrelated text, and counts what it scanned", () => {
    scan.expectClean("unit", ["canary-pässwörd-00000000-0000", "gAAAAAB", "<redacted>"]);
    expect(scan.summary()).toBe("unit: 2 canaries in 3 texts (password, token)");
  });
});
