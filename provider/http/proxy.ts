/**
 * Which forward proxy a request goes through: the caller's `proxy` option, else the environment as
 * curl, keystoneauth (requests) and gophercloud (Go's net/http) read it. Pure: no request is made here.
 */
import { BlockList, isIP } from "node:net";
import { ConfigError } from "../errors";

/** ProxyChoice is the proxy one request goes through. */
export interface ProxyChoice {
  /** The proxy's URL, credentials included: only ever handed to the proxy agent. */
  url: string;
  /** The proxy without credentials, path or query (`http://proxy.corp:3128`): for messages and logs. */
  shown: string;
  /** Where the setting came from: `HTTPS_PROXY`, `http_proxy`, `transport.proxy`, ... */
  from: string;
}

/**
 * The variables read for a target's scheme, in order; the first one set (not empty) wins. Upper-case
 * `HTTP_PROXY` is ignored when `REQUEST_METHOD` is set: in a CGI program it can be set by a client's
 * `Proxy:` header ("httpoxy"), which is why curl never reads it and Go skips it there.
 */
function variablesFor(protocol: string, env: NodeJS.ProcessEnv): string[] {
  const scheme =
    protocol === "https:"
      ? ["https_proxy", "HTTPS_PROXY"]
      : env["REQUEST_METHOD"] === undefined
        ? ["http_proxy", "HTTP_PROXY"]
        : ["http_proxy"];
  return [...scheme, "all_proxy", "ALL_PROXY"];
}

function firstSet(env: NodeJS.ProcessEnv, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/**
 * proxyFor picks the proxy for `target`, or undefined for a direct connection. `setting` is the
 * caller's `transport.proxy`: a URL, `false` for none, undefined to read the environment. Hosts in
 * `no_proxy` / `NO_PROXY` are reached directly either way, as curl does.
 *
 * @example
 * proxyFor(new URL("https://api.example.com/bill/graphql"), undefined, { HTTPS_PROXY: "proxy:3128" });
 * // { url: "http://proxy:3128/", shown: "http://proxy:3128", from: "HTTPS_PROXY" }
 */
export function proxyFor(
  target: URL,
  setting: string | false | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProxyChoice | undefined {
  if (setting === false) return undefined;
  const chosen =
    setting !== undefined
      ? { name: "transport.proxy", value: setting }
      : firstSet(env, variablesFor(target.protocol, env));
  if (!chosen) return undefined;
  const noProxy = firstSet(env, ["no_proxy", "NO_PROXY"])?.value;
  if (noProxy && bypassesProxy(target, noProxy)) return undefined;
  return parseProxy(chosen.value, chosen.name);
}

/**
 * parseProxy reads a proxy URL as curl does: no scheme means `http://`; `http://` and `https://` only.
 * The value is never echoed in an error: it may hold a password.
 */
export function parseProxy(raw: string, from: string): ProxyChoice {
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // no cause: URL's TypeError carries the input, password included
    throw new ConfigError(from, "is not a proxy URL; e.g. http://proxy.example.com:3128");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(
      from,
      `${url.protocol}// proxies are not supported; give an http:// (or https://) forward proxy`,
    );
  }
  if (!url.hostname) throw new ConfigError(from, "names no proxy host; e.g. http://proxy.example.com:3128");
  return { url: url.href, shown: `${url.protocol}//${url.host}`, from };
}

/** The host of a URL without IPv6 brackets, in lower case, and its port (the scheme's default if none). */
function hostPort(u: URL): { host: string; port: string } {
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return { host, port };
}

/**
 * bypassesProxy tells whether `no_proxy` (comma- or space-separated) names the target: `*` (every
 * host), a domain (`example.com` or `.example.com`: the domain and its subdomains), an IP address, a
 * CIDR block (`10.0.0.0/8`, `fd00::/8`), each optionally with `:port` (`[::1]:5000` for IPv6).
 */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const { host, port } = hostPort(target);
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    const { name, entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (matchesHost(host, name)) return true;
  }
  return false;
}

/** splitPort separates `host:port`, `[v6]:port` and `[v6]`; a bare IPv6 address keeps its colons. */
function splitPort(entry: string): { name: string; entryPort?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    const name = bracketed[1] ?? "";
    return bracketed[2] === undefined ? { name } : { name, entryPort: bracketed[2] };
  }
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { name: withPort[1] ?? "", entryPort: withPort[2] ?? "" };
  return { name: entry };
}

function matchesHost(host: string, name: string): boolean {
  const cidr = /^(.+)\/(\d{1,3})$/.exec(name);
  if (cidr) {
    const net = cidr[1] ?? "";
    const family = isIP(net);
    const hostFamily = isIP(host);
    if (family === 0 || hostFamily !== family) return false;
    const prefix = Number(cidr[2]);
    if (prefix > (family === 4 ? 32 : 128)) return false;
    const list = new BlockList();
    const type = family === 4 ? "ipv4" : "ipv6";
    list.addSubnet(net, prefix, type);
    return list.check(host, type);
  }
  if (isIP(name) !== 0) return isIP(host) !== 0 && sameAddress(host, name);
  const domain = name.replace(/^\*?\./, "");
  if (domain === "") return false;
  return host === domain || host.endsWith(`.${domain}`);
}

function sameAddress(a: string, b: string): boolean {
  const family = isIP(a);
  if (family !== isIP(b)) return false;
  if (family === 4) return a === b;
  const list = new BlockList();
  list.addAddress(b, "ipv6");
  return list.check(a, "ipv6");
}
