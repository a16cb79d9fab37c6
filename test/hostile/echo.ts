/**
 * What an endpoint or a proxy that echoes what it was sent answers: the text (a credential, the
 * headers, the body) in one encoding per case — raw, JSON-escaped, URL- and form-encoded, base64 and
 * base64url (alone, and inside a larger base64 blob at each byte alignment), hex, HTML-escaped — so a
 * form that is not caught cannot hide behind one that is; and the shapes it comes in.
 */
import escapeHtml from "escape-html";

const b64 = (s: string, url = false) => Buffer.from(s, "utf8").toString(url ? "base64url" : "base64");
const inBlob = (o: number) => (e: string) =>
  b64(`${"xy".slice(0, o)}${JSON.stringify({ request: e, note: "echoed for debugging" })}`);

/** Each encoding an echo comes in. */
export const ENCODINGS: Record<string, (echo: string) => string> = {
  raw: (e) => e,
  "JSON-escaped": (e) => JSON.stringify(e),
  "URL-encoded": (e) => encodeURIComponent(e),
  "form-encoded": (e) => new URLSearchParams({ e }).toString(),
  base64: (e) => b64(e),
  base64url: (e) => b64(e, true),
  "base64 of a JSON document, offset 0": inBlob(0),
  "base64 of a JSON document, offset 1": inBlob(1),
  "base64 of a JSON document, offset 2": inBlob(2),
  hex: (e) => Buffer.from(e, "utf8").toString("hex"),
  "HTML-escaped": (e) => escapeHtml(e),
};

/** The shapes an echo is sent in: Keystone's error body, a gateway's JSON, an HTML page. */
export type EchoShape = "keystone" | "gateway" | "html";

/** echoBody is the content type and body of an answer that carries `text` in `shape`. */
export function echoBody(shape: EchoShape, status: number, text: string): { type: string; body: string } {
  if (shape === "html") {
    return {
      type: "text/html",
      body: `<html><head><title>${status} Error</title></head><body><h1>${status}</h1><pre>${text}</pre></body></html>`,
    };
  }
  const body =
    shape === "gateway"
      ? { message: text, detail: text }
      : { error: { code: status, title: text, message: text } };
  return { type: "application/json", body: JSON.stringify(body) };
}
