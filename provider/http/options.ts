/**
 * What a caller can say about the transport — TLS, proxy, timeouts, retries, response size, a signal —
 * and how those settings are merged over `COSTGATE_RETRIES` / `COSTGATE_TIMEOUT_MS` and the defaults.
 */

import { ConfigError, type SettingNames } from "../errors";
import { readWhole } from "../numbers";

/**
 * Timeouts of one request (one attempt), in milliseconds. undici checks the connect, headers and body
 * timeouts on a clock that ticks about twice a second, so they may fire up to a second late; `totalMs`
 * is exact.
 */
export interface Timeouts {
  /** Establishing the TCP/TLS connection (to the proxy, with one). Default 10 000. */
  connectMs?: number;
  /** Waiting for the response headers once connected. Default 30 000 (or `COSTGATE_TIMEOUT_MS`). */
  headersMs?: number;
  /** Between two chunks of the body. Default 30 000 (or `COSTGATE_TIMEOUT_MS`). */
  bodyMs?: number;
  /** One attempt, start to last byte. Default 60 000 (or `COSTGATE_TIMEOUT_MS`). */
  totalMs?: number;
}

/**
 * RetryOptions say how often and how long a request is tried again. Which failures are retried
 * depends on the request: see {@link HttpRequest.idempotent}.
 *
 * Attempt n+1 waits a random time in [0, min(maxDelayMs, baseMs · 2^(n-1))] ("full jitter"), or
 * what the server's `Retry-After` asks for on a 429/503 (seconds or an HTTP date). No wait goes
 * past `totalMs`: a `Retry-After` longer than the time left is not waited for, and the response is
 * returned as it is (its `retryAfterMs` says what the server asked for).
 *
 * @example
 * const transport = { retry: { tries: 5, baseMs: 100, maxDelayMs: 2_000, totalMs: 10_000 } };
 */
export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retries off. Default 3 (`COSTGATE_RETRIES` + 1). */
  tries?: number;
  /** Base of the exponential backoff. Default 200. */
  baseMs?: number;
  /** Longest wait between two attempts. Default 5 000. */
  maxDelayMs?: number;
  /**
   * Time budget of all attempts and waits: no retry starts past it and a retry is cut off at it
   * (the first attempt keeps its own timeouts). Default 20 000.
   */
  totalMs?: number;
  /** Waits between attempts; inject one in tests. Default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter; inject one in tests. Default Math.random. */
  random?: () => number;
  /** The clock of the budget and of `Retry-After` dates, in ms since the epoch. Default Date.now. */
  now?: () => number;
}

/**
 * How to reach an endpoint: TLS settings, proxy, timeouts, retries, the largest answer read and a
 * signal that cancels the request.
 *
 * @example
 * const controller = new AbortController();
 * const transport = { caCert: "/etc/ssl/corp.pem", proxy: "http://proxy.corp:3128", signal: controller.signal };
 */
export interface TransportOptions {
  /** Path to a PEM bundle of CA certificates to trust (like `OS_CACERT`); also used for an https:// proxy. */
  caCert?: string;
  /** Skip TLS verification of the endpoint (like `OS_INSECURE`). Warns once per process. */
  insecure?: boolean;
  /**
   * The forward proxy: a URL (`http://user:password@proxy:3128`; no scheme means `http://`), or `false`
   * for none. Unset: from the environment as curl reads it — `https_proxy` / `HTTPS_PROXY` for https
   * URLs, `http_proxy` / `HTTP_PROXY` for http ones, then `all_proxy` / `ALL_PROXY`, except for hosts in
   * `no_proxy` / `NO_PROXY` (lower case wins). Credentials in the URL are sent to the proxy only, and
   * never shown.
   */
  proxy?: string | false;
  timeouts?: Timeouts;
  /** Retries of failed attempts; `false` is `{ tries: 1 }`. */
  retry?: RetryOptions | false;
  /**
   * The largest response body read, in bytes: a longer one ends the request with a ResponseError
   * (not retried) instead of filling memory. Default 16 MiB; token and billing bodies are far smaller.
   */
  maxResponseBytes?: number;
  /** Cancels the request (and the waits between retries) when it aborts. */
  signal?: AbortSignal;
  /**
   * A cap shared by the requests given it: every attempt counts, and one past `limit` is not sent (a
   * LimitError naming `setting` instead).
   */
  requestBudget?: RequestBudget;
  /**
   * A second cap, over a whole run: a caller (the command line) makes one per run and passes it down with the endpoint's settings, so it travels with every request of that run and with
   * no other. Counted besides {@link requestBudget}; copies of these options share it.
   */
  runBudget?: RequestBudget;
  /**
   * How errors name the caller's settings (`caCert`, `insecure` unless it says otherwise; errors.ts):
   * the costgate command passes its flags.
   */
  names?: SettingNames;
}

/** RequestBudget caps how many requests (attempts) are sent under it. */
export interface RequestBudget {
  limit: number;
  /** Attempts sent so far. */
  used: number;
  /** The setting that sets `limit`, as the error names it, in the caller's words (`maxRequests`). */
  setting: string;
}

/** The largest response body read when the caller does not say. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The timeouts used when neither the caller nor `COSTGATE_TIMEOUT_MS` gives one. */
export const DEFAULT_TIMEOUTS: Required<Timeouts> = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  totalMs: 60_000,
};

/** The retry settings used when neither the caller nor `COSTGATE_RETRIES` gives them. */
export const DEFAULT_RETRY: Required<Pick<RetryOptions, "tries" | "baseMs" | "maxDelayMs" | "totalMs">> = {
  tries: 3,
  baseMs: 200,
  maxDelayMs: 5_000,
  totalMs: 20_000,
};

/** The longest timeout a timer can hold (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function positiveInt(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = readWhole(raw);
  if (n === undefined || n < min) {
    throw new ConfigError(name, `"${raw}" is not a whole number, ${min} or more`);
  }
  return n;
}

/**
 * @internal envSettings reads `COSTGATE_RETRIES` (retries after the first attempt: 0 turns them
 * off) and `COSTGATE_TIMEOUT_MS` (headers, body and per-attempt timeouts; connect is capped by it).
 * They replace the built-in defaults; options given in code win over them.
 */
export function envSettings(env: NodeJS.ProcessEnv = process.env): {
  timeouts: Timeouts;
  retry: RetryOptions;
} {
  const retries = positiveInt("COSTGATE_RETRIES", env["COSTGATE_RETRIES"], 0);
  const timeoutMs = positiveInt("COSTGATE_TIMEOUT_MS", env["COSTGATE_TIMEOUT_MS"], 1);
  const timeouts: Timeouts =
    timeoutMs === undefined
      ? {}
      : {
          connectMs: Math.min(DEFAULT_TIMEOUTS.connectMs, timeoutMs),
          headersMs: timeoutMs,
          bodyMs: timeoutMs,
          totalMs: timeoutMs,
        };
  return { timeouts, retry: retries === undefined ? {} : { tries: retries + 1 } };
}

/** @internal */
export type ResolvedRetry = Required<RetryOptions>;
/** @internal */
export type ResolvedTransport = { timeouts: Required<Timeouts>; retry: ResolvedRetry };

/** The settings of a request without transport options, and the environment values they came from. */
interface KeptDefaults {
  retries: string | undefined;
  timeoutMs: string | undefined;
  resolved: ResolvedTransport;
}
let defaultsFor: KeptDefaults | undefined;

/**
 * @internal resolveTransport merges the caller's options over the environment over the defaults.
 * Without timeouts or retry options (none at all, or only TLS ones) the answer depends only on
 * `COSTGATE_RETRIES` and `COSTGATE_TIMEOUT_MS`, so it is kept (frozen) until one of them changes.
 */
export function resolveTransport(
  transport: TransportOptions | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedTransport {
  if (transport?.timeouts !== undefined || transport?.retry !== undefined)
    return resolveUncached(transport, env);
  const retries = env["COSTGATE_RETRIES"];
  const timeoutMs = env["COSTGATE_TIMEOUT_MS"];
  const kept = defaultsFor;
  if (kept && kept.retries === retries && kept.timeoutMs === timeoutMs) return kept.resolved;
  const resolved = resolveUncached(undefined, env);
  Object.freeze(resolved.timeouts);
  Object.freeze(resolved.retry);
  defaultsFor = { retries, timeoutMs, resolved: Object.freeze(resolved) };
  return resolved;
}

function resolveUncached(transport: TransportOptions | undefined, env: NodeJS.ProcessEnv): ResolvedTransport {
  const fromEnv = envSettings(env);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...fromEnv.timeouts, ...definedOnly(transport?.timeouts) };
  const given = transport?.retry === false ? { tries: 1 } : definedOnly(transport?.retry);
  const retry: ResolvedRetry = {
    ...DEFAULT_RETRY,
    sleep: realSleep,
    // looked up at each call, so kept settings follow a stubbed Math.random or faked Date
    random: () => Math.random(),
    now: () => Date.now(),
    ...fromEnv.retry,
    ...given,
  };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!(typeof value === "number" && value > 0)) {
      throw new ConfigError(`timeouts.${name}`, `must be a positive number of milliseconds (got ${value})`);
    }
    if (value > MAX_TIMEOUT_MS) {
      throw new ConfigError(
        `timeouts.${name}`,
        `must be at most ${MAX_TIMEOUT_MS} ms (about 24 days; got ${value})`,
      );
    }
  }
  if (!Number.isInteger(retry.tries) || retry.tries < 1) {
    throw new ConfigError("retry.tries", `must be a whole number, 1 or more (got ${retry.tries})`);
  }
  for (const name of ["baseMs", "maxDelayMs", "totalMs"] as const) {
    if (!(typeof retry[name] === "number" && retry[name] >= 0)) {
      throw new ConfigError(`retry.${name}`, `must be 0 or more milliseconds (got ${retry[name]})`);
    }
  }
  return { timeouts, retry };
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
