/**
 * A tagged template that escapes every value put into HTML (escape-html), so markup can only come
 * from the template's own text or from another `html` fragment.
 */
import escapeHtml from "escape-html";
import { stripControls } from "../../provider/text";

/** SafeHtml is markup that was built by `html`: it is inserted as is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(v: unknown): string {
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  if (v === undefined || v === null || v === false) return "";
  // text from an endpoint, a file or a config loses its control characters (escape sequences, C1, bidi
  // overrides) here too: a report opened in a browser, or its source in a terminal, shows only text
  return escapeHtml(stripControls(String(v), true));
}

/**
 * html builds markup: strings, numbers and anything else are escaped (`&`, `<`, `>`, `"`, `'`) and
 * stripped of control characters; arrays
 * are joined; `undefined`, `null` and `false` render as nothing; `SafeHtml` is kept.
 *
 * @example html`<td title="${name}">${amount}</td>` // name and amount are escaped
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}
