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
 * the entry point is used instead.
 */
export function undici(): Undici {
  if (loaded) return loaded;
  try {
    const Dispatcher = require("undici/lib/dispatcher/dispatcher.js") as { prototype: object };
    const api = require("undici/lib/api/index.js") as object;
    if (!("request" in Dispatcher.prototype)) Object.assign(Dispatcher.prototype, api);
    loaded = {
      Agent: require("undici/lib/dispatcher/agent.js"),
      Pool: require("undici/lib/dispatcher/pool.js"),
      ProxyAgent: require("undici/lib/dispatcher/proxy-agent.js"),
    };
    if (typeof loaded.Agent !== "function" || typeof loaded.ProxyAgent !== "function")
      throw new Error("moved");
  } catch {
    loaded = require("undici") as Undici;
  }
  return loaded;
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
  const { Agent, Pool, ProxyAgent } = undici();
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
    d = new Agent({ ...pooled, connect: tls });
  } else {
    d = new ProxyAgent({
      uri: spec.proxy.url,
      // http:// endpoints in absolute form through an http:// proxy, as curl does (many proxies allow
      // CONNECT to port 443 only); https:// ones through a CONNECT tunnel
      proxyTunnel: false,
      ...pooled,
      requestTls: tls,
      // an https:// proxy: the system's CAs and the caller's bundle; never made insecure
      proxyTls: { ...(ca ? { ca } : {}), timeout: spec.connectMs },
      factory: (origin, opts) => new Pool(origin, { ...opts, ...pooled }),
      // the proxy's answer to CONNECT is part of connecting: it gets the connect timeout
      clientFactory: (origin, opts) => new Pool(origin, { ...opts, headersTimeout: spec.connectMs }),
    });
  }
  dispatchers.set(key, d);
  return d;
}
