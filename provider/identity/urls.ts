/**
 * URL builders for Keystone v3. The only place that knows identity paths.
 */
import { ConfigError } from "../errors";

/**
 * normalizeAuthUrl returns the identity base address ending in `/v3` with no trailing slash.
 * An address without a version segment gets `/v3` appended (as keystoneauth's discovery would
 * find it); an address naming another version (`/v2.0`) is refused.
 *
 * @example normalizeAuthUrl("https://identity.example:5000/") // "https://identity.example:5000/v3"
 */
export function normalizeAuthUrl(raw: string, field = "authUrl"): string {
  let normal = normalized.get(raw);
  if (normal === undefined) {
    normal = normalize(raw, field);
    if (normalized.size >= 64) normalized.clear();
    normalized.set(raw, normal);
  }
  return normal;
}

/** Addresses already normalized (only good ones: a bad one throws each time, naming its field). */
const normalized = new Map<string, string>();

function normalize(raw: string, field: string): string {
  const trimmed = raw.trim();
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    throw new ConfigError(
      field,
      `"${trimmed}" is not a URL; give the identity address, e.g. https://identity.example/v3`,
    );
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    throw new ConfigError(
      field,
      `must be an http(s) URL, not ${u.protocol}; e.g. https://identity.example/v3`,
    );
  }
  if (u.username || u.password) {
    throw new ConfigError(field, "must not carry credentials in the URL; pass them as credential settings");
  }
  u.search = "";
  u.hash = "";
  const path = u.pathname.replace(/\/+$/, "");
  const last = path.split("/").pop() ?? "";
  if (last === "v3") {
    u.pathname = path;
  } else if (/^v\d+(\.\d+)?$/.test(last)) {
    throw new ConfigError(
      field,
      `names identity API ${last}; costgate speaks Keystone v3: use an address ending in /v3`,
    );
  } else {
    u.pathname = `${path}/v3`;
  }
  return u.toString().replace(/\/+$/, "");
}

/** tokensUrl is `{auth_url}/auth/tokens` (docs/API.md#issue-a-token-with-a-password, docs/API.md#issue-a-token-with-an-application-credential). */
export function tokensUrl(authUrl: string): string {
  return `${authUrl}/auth/tokens`;
}
