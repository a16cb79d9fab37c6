/**
 * Property values as they cross the provider protocol: Pulumi's secret envelope, the unknown sentinel of a
 * preview, and plain JSON for google-protobuf's Struct (which throws on `undefined`, bigint and Buffer).
 * @internal
 */

/** The key and value that mark a secret envelope: `{ [SECRET_SIG]: SECRET_VALUE, value }`. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";
/** The value of a property unknown during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;

function isObject(v: unknown): v is Props {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** isSecret tells whether a value is a secret envelope. */
export function isSecret(v: unknown): v is { value: unknown } {
  return isObject(v) && v[SECRET_SIG] === SECRET_VALUE;
}

/** reveal removes every secret envelope, deep, and collects the texts they held (to keep them out of errors). */
export function reveal(v: unknown, found: Set<string> = new Set()): unknown {
  if (isSecret(v)) {
    const inner = reveal(v.value, found);
    collectStrings(inner, found);
    return inner;
  }
  if (Array.isArray(v)) return v.map((x) => reveal(x, found));
  if (isObject(v)) {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) out[k] = reveal(x, found);
    return out;
  }
  return v;
}

/** revealProps is reveal for a property map: the plain values and the top-level keys that held a secret. */
export function revealProps(
  props: Props,
  found: Set<string> = new Set(),
): { values: Props; secretKeys: Set<string> } {
  const values: Props = {};
  const secretKeys = new Set<string>();
  for (const [k, v] of Object.entries(props)) {
    values[k] = reveal(v, found);
    if (containsSecret(v)) secretKeys.add(k);
  }
  return { values, secretKeys };
}

function containsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (isObject(v)) return Object.values(v).some(containsSecret);
  return false;
}

/** collectStrings adds every string inside `v` to `into`. */
export function collectStrings(v: unknown, into: Set<string>): void {
  if (typeof v === "string" && v !== "") into.add(v);
  else if (Array.isArray(v)) for (const x of v) collectStrings(x, into);
  else if (isObject(v)) for (const x of Object.values(v)) collectStrings(x, into);
}

/** conceal wraps the named top-level properties in secret envelopes (once). */
export function conceal(props: Props, keys: Iterable<string>): Props {
  const out: Props = { ...props };
  for (const k of keys) {
    if (Object.hasOwn(out, k) && out[k] !== undefined && !isSecret(out[k])) {
      out[k] = { [SECRET_SIG]: SECRET_VALUE, value: out[k] };
    }
  }
  return out;
}

/** isUnknown tells whether a value is, or holds, the unknown sentinel. */
export function isUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(isUnknown);
  if (isObject(v)) return Object.values(v).some(isUnknown);
  return false;
}

/**
 * plain makes a value fit for a Struct: `undefined` properties and array items are dropped, a number that
 * is not finite becomes null, a Date becomes its ISO text (an invalid Date null, as JSON.stringify writes it);
 * anything else that is no JSON value is refused.
 */
export function plain(v: unknown, path = "value"): unknown {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.filter((x) => x !== undefined).map((x, i) => plain(x, `${path}[${i}]`));
  if (isObject(v)) {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = plain(x, `${path}.${k}`);
    return out;
  }
  throw new TypeError(`${path}: a ${typeof v} cannot be sent as a property value`);
}
