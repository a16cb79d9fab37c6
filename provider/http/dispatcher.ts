/**
 * The undici dispatchers requests go through: one keep-alive Agent (or ProxyAgent) per combination of
 * TLS settings, proxy, connect timeout and response limit, made at first use. undici itself is loaded
 * at the first request, so commands that send none (`--help`, `--version`, `policy-config`) never pay
 * for it.
 */
import type { Dispatcher } from "undici";
import { ConfigError } from "../errors";
import { readBounded } from "../files";
import type { ProxyChoice } from "./proxy";

/** The parts of undici costgate uses. */
type Undici = Pick<typeof import("undici"), "Agent" | "Pool" | "ProxyAgent">;
let loaded: Undici | undefined;

/**
 * @internal undici's dispatchers, required at the first request. Its entry point also loads mocks,
 * caches, interceptors, fetch and node's own bundled undici: ~45 ms more per process than the three
 * dispatchers and the request API (docs/BENCHMARKS.md). Those files are required directly, with the
 * request API put on Dispatcher.prototype as the entry point does; should a later undici move them,
 * the entry point is used instead. The ProxyAgent, and the rest of the API it tunnels with (`connect`),
 * load when a proxy is first used: a run without one does not compile them (8 files). Either way
 * node:http2 is not loaded (see withoutHttp2).
 */
export function undici(): Undici {
  if (loaded) return loaded;
  loaded = withoutHttp2(loadUndici);
  return loaded;
}

function loadUndici(): Undici {
  try {
    const Dispatcher = require("undici/lib/dispatcher/dispatcher.js") as { prototype: object };
    if (!("request" in Dispatcher.prototype)) {
      Object.assign(Dispatcher.prototype, { request: require("undici/lib/api/api-request.js") });
    }
    const Agent = require("undici/lib/dispatcher/agent.js") as Undici["Agent"];
    const Pool = require("undici/lib/dispatcher/pool.js") as Undici["Pool"];
    if (typeof Agent !== "function" || typeof Pool !== "function") throw new Error("moved");
    let proxyAgent: Undici["ProxyAgent"] | undefined;
    return {
      Agent,
      Pool,
      get ProxyAgent() {
        proxyAgent ??= withoutHttp2(() => loadProxyAgent(Dispatcher.prototype));
        return proxyAgent;
      },
    };
  } catch {
    return require("undici") as Undici;
  }
}

/** loadProxyAgent requires undici's ProxyAgent and puts the whole request API (its tunnels use `connect`) in place. */
function loadProxyAgent(prototype: object): Undici["ProxyAgent"] {
  try {
    const api = require("undici/lib/api/index.js") as Record<string, unknown>;
    for (const [name, fn] of Object.entries(api))
      if (!(name in prototype)) Object.assign(prototype, { [name]: fn });
    const ProxyAgent = require("undici/lib/dispatcher/proxy-agent.js") as Undici["ProxyAgent"];
    if (typeof ProxyAgent !== "function") throw new Error("moved");
    return ProxyAgent;
  } catch {
    return (require("undici") as Undici).ProxyAgent;
  }
}

/**
 * @internal The HTTP/2 values undici's client reads from node:http2 when it loads: the protocol's own
 * header names and error codes (RFC 9113 §8.3, §7), the same on every node (test/hostile/perf.test.ts
 * holds them equal to node:http2's).
 */
export const HTTP2_CONSTANTS: Readonly<Record<string, string | number>> = {
  HTTP2_HEADER_AUTHORITY: ":authority",
  HTTP2_HEADER_METHOD: ":method",
  HTTP2_HEADER_PATH: ":path",
  HTTP2_HEADER_SCHEME: ":scheme",
  HTTP2_HEADER_CONTENT_LENGTH: "content-length",
  HTTP2_HEADER_EXPECT: "expect",
  HTTP2_HEADER_STATUS: ":status",
  HTTP2_HEADER_PROTOCOL: ":protocol",
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};

/**
 * @internal lazyHttp2 stands in for node:http2 in undici's HTTP/2 client: its constants above without
 * loading anything; any other property (`connect`, a constant not listed) loads node:http2 and is read
 * there, so an undici that does speak HTTP/2 (allowH2, in this process or a program sharing the copy)
 * gets the real module at its first use.
 */
export function lazyHttp2(): object {
  type Bag = Record<string | symbol, unknown>;
  const real = () => require("node:http2") as Bag;
  const constants = new Proxy({} as Bag, {
    get: (_t, k) =>
      typeof k === "string" && Object.hasOwn(HTTP2_CONSTANTS, k)
        ? HTTP2_CONSTANTS[k]
        : (real()["constants"] as Bag)[k],
    has: (_t, k) => k in (real()["constants"] as Bag),
  });
  return new Proxy({} as Bag, {
    get: (_t, k) => (k === "constants" ? constants : real()[k]),
    has: (_t, k) => k in real(),
  });
}

const UNDICI_H2 = /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/;

/**
 * withoutHttp2 runs `load` (the require of undici's dispatchers) with node:http2 replaced by
 * {@link lazyHttp2} for undici's HTTP/2 client only: undici requires node:http2 when it loads, ~20 ms of
 * a ~170 ms `costgate balance` (docs/BENCHMARKS.md), and costgate never asks for HTTP/2. The module
 * loader is wrapped for this one synchronous call and restored after it; where node has no
 * `Module._load` (or undici no longer loads node:http2 that way), it is an ordinary require.
 */
function withoutHttp2<T>(load: () => T): T {
  type Load = (this: unknown, request: unknown, parent: unknown, ...rest: unknown[]) => unknown;
  const Module = require("node:module") as { _load?: Load };
  const previous = Module._load;
  if (typeof previous !== "function") return load();
  let standIn: object | undefined;
  Module._load = function (this: unknown, request, parent, ...rest) {
    const from = (parent as { filename?: unknown } | undefined)?.filename;
    if (
      (request === "node:http2" || request === "http2") &&
      typeof from === "string" &&
      UNDICI_H2.test(from)
    ) {
      standIn ??= lazyHttp2();
      return standIn;
    }
    return previous.call(this, request, parent, ...rest);
  };
  try {
    return load();
  } finally {
    Module._load = previous;
  }
}

/** @internal What a dispatcher is made for. */
export interface DispatcherSpec {
  caCert?: string | undefined;
  insecure: boolean;
  proxy?: ProxyChoice | undefined;
  connectMs: number;
  maxBytes: number;
}

/** Free sockets close after 4 s, before the usual 5 s of servers, so a reused one is not being closed. */
const KEEP_ALIVE_MS = 4_000;

const dispatchers = new Map<string, Dispatcher>();
let warnedInsecure = false;

function readCa(path: string): string {
  const text = readBounded(path, {
    field: "cacert",
    kind: "settings",
    hint: "point OS_CACERT (or cacert in clouds.yaml) at a readable PEM file",
  });
  if (!text.includes("-----BEGIN CERTIFICATE-----")) {
    throw new ConfigError(
      "cacert",
      `${path} is not a PEM bundle (no -----BEGIN CERTIFICATE----- line); convert it (openssl x509 -inform der -in FILE -out ca.pem) and point OS_CACERT at the PEM file`,
    );
  }
  return text;
}

/**
 * @internal dispatcherFor returns the keep-alive dispatcher for `spec`, made once per process. The key
 * holds the proxy URL with its credentials: it never leaves this map.
 */
export function dispatcherFor(spec: DispatcherSpec): Dispatcher {
  const key = JSON.stringify([
    spec.caCert ?? "",
    spec.insecure,
    spec.proxy?.url ?? "",
    spec.connectMs,
    spec.maxBytes,
  ]);
  let d = dispatchers.get(key);
  if (d) return d;
  // not destructured: ProxyAgent is a getter that loads it, read only when a proxy is used
  const u = undici();
  const ca = spec.caCert ? readCa(spec.caCert) : undefined;
  if (spec.insecure && !warnedInsecure) {
    warnedInsecure = true;
    process.emitWarning(
      "TLS certificate verification is disabled (insecure); use a CA bundle (OS_CACERT) instead",
      "CostgateInsecureWarning",
    );
  }
  // TLS of the endpoint: what the caller trusts (undici ignores these for http://)
  const tls = { ...(ca ? { ca } : {}), rejectUnauthorized: !spec.insecure, timeout: spec.connectMs };
  const pooled = { keepAliveTimeout: KEEP_ALIVE_MS, maxResponseSize: spec.maxBytes };
  if (!spec.proxy) {
    d = new u.Agent({ ...pooled, connect: tls });
  } else {
    d = new u.ProxyAgent({
      uri: spec.proxy.url,
      // http:// endpoints in absolute form through an http:// proxy, as curl does (many proxies allow
      // CONNECT to port 443 only); https:// ones through a CONNECT tunnel
      proxyTunnel: false,
      ...pooled,
      requestTls: tls,
      // an https:// proxy: the system's CAs and the caller's bundle; never made insecure
      proxyTls: { ...(ca ? { ca } : {}), timeout: spec.connectMs },
      factory: (origin, opts) => new u.Pool(origin, { ...opts, ...pooled }),
      // the proxy's answer to CONNECT is part of connecting: it gets the connect timeout
      clientFactory: (origin, opts) => new u.Pool(origin, { ...opts, headersTimeout: spec.connectMs }),
    });
  }
  dispatchers.set(key, d);
  return d;
}
