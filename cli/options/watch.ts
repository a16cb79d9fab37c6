/**
 * `costgate watch`'s options, read and checked before anything starts: the targets (the one resolver),
 * --interval, --listen, --webhook / --slack-webhook, --state, --once, --gate and --concurrency.
 */
import { isConfigError } from "../../provider/errors";
import { parseDuration } from "../../provider/resources/duration";
import type { RunwayUnit } from "../../provider/watch/metrics";
import { type Destination, parseWebhook } from "../../provider/watch/webhooks";
import { UsageError } from "../errors";
import { inputLimitFrom } from "../files";
import { type EndpointOptions, endpointOptions } from "./billing";
import { requireGate, type TargetOptions, targetOptions } from "./gate";
import { type Flags, text, wholeNumber } from "./parse";

/** The default --interval: 15 minutes. */
export const DEFAULT_INTERVAL_MS = 15 * 60_000;
/** The longest --interval: a day. */
export const MAX_INTERVAL_MS = 24 * 3_600_000;
/** The default --listen. */
export const DEFAULT_LISTEN = "127.0.0.1:9464";

/** `costgate watch`'s options. */
export interface WatchOptions extends TargetOptions {
  intervalMs: number;
  listen: { host: string; port: number };
  destinations: Destination[];
  /** --state: where what fires and what is still to deliver is kept. */
  statePath?: string;
  once: boolean;
  gate: boolean;
  concurrency: number;
  /** --runway-unit: the runway metrics in days (the default) or in seconds, Prometheus' base unit. */
  runwayUnit: RunwayUnit;
  /** Warnings to print before starting (an interval under a minute). */
  warnings: string[];
  /** How to reach billing; its request cap (--max-requests) counts per cycle. */
  endpoint: EndpointOptions;
  /** The largest --state file read (--max-input-size). */
  maxInputBytes: number;
}

/** list reads a repeatable flag. */
function list(o: Flags, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v : typeof v === "string" ? [v] : [];
}

/** intervalFrom reads --interval: seconds or a duration such as 90s, 15m, 1h30m; 1 s to a day. */
export function intervalFrom(v: string | undefined): { ms: number; warning?: string } {
  if (v === undefined) return { ms: DEFAULT_INTERVAL_MS };
  let s: number;
  try {
    s = parseDuration(v, "--interval");
  } catch (e) {
    if (isConfigError(e)) throw new UsageError(`${e.message}, e.g. --interval 15m`);
    throw e;
  }
  const ms = Math.round(s * 1000);
  if (ms < 1000)
    throw new UsageError(`--interval: "${v}" is under a second; give 1s or more, e.g. --interval 15m`);
  if (ms > MAX_INTERVAL_MS) throw new UsageError(`--interval: "${v}" is over a day; give at most 24h`);
  return ms < 60_000
    ? {
        ms,
        warning: `--interval ${v} is under a minute: every project is read that often (fine for a test, heavy on the billing API); the default is 15m`,
      }
    : { ms };
}

/** listenFrom reads --listen: `host:port` (`[::1]:9464` for IPv6); port 0 picks a free one. */
export function listenFrom(v: string = DEFAULT_LISTEN): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(v.trim());
  const port = Number(m?.[3]);
  if (!m || !(port >= 0 && port <= 65535))
    throw new UsageError(
      `--listen: "${v}" is not host:port; e.g. --listen 127.0.0.1:9464 (0.0.0.0:9464 to be scraped from other hosts)`,
    );
  return { host: (m[1] ?? m[2]) as string, port };
}

/**
 * watchOptions reads every option of `costgate watch` before anything is sent. Webhook URLs come from
 * --webhook / --slack-webhook (repeatable) and COSTGATE_WEBHOOK_URL / COSTGATE_SLACK_WEBHOOK_URL (which
 * keep the URL out of the process list).
 */
export function watchOptions(o: Flags, env: NodeJS.ProcessEnv = process.env): WatchOptions {
  const t = targetOptions(o);
  const gate = o["gate"] === true;
  if (gate && o["once"] !== true)
    throw new UsageError(
      "--gate: only with --once (a run that ends with check's exit codes); a long-running watch alerts instead",
    );
  if (gate)
    for (const { projectId, config } of t.targets)
      requireGate(config, t.targets.length > 1 ? projectId : undefined);
  const interval = intervalFrom(text(o, "interval"));
  const listen = listenFrom(text(o, "listen"));
  const raw: [string, Destination["kind"], string][] = [
    ...list(o, "webhook").map((u) => [u, "json", "--webhook"] as [string, Destination["kind"], string]),
    ...list(o, "slackWebhook").map(
      (u) => [u, "slack", "--slack-webhook"] as [string, Destination["kind"], string],
    ),
  ];
  if (env["COSTGATE_WEBHOOK_URL"]) raw.push([env["COSTGATE_WEBHOOK_URL"], "json", "COSTGATE_WEBHOOK_URL"]);
  if (env["COSTGATE_SLACK_WEBHOOK_URL"])
    raw.push([env["COSTGATE_SLACK_WEBHOOK_URL"], "slack", "COSTGATE_SLACK_WEBHOOK_URL"]);
  const destinations: Destination[] = [];
  for (const [url, kind, field] of raw) {
    let d: Destination;
    try {
      d = parseWebhook(url, kind, field);
    } catch (e) {
      if (isConfigError(e)) throw new UsageError(e.message);
      throw e;
    }
    if (!destinations.some((x) => x.id === d.id)) destinations.push(d);
  }
  const statePath = text(o, "state");
  if (statePath !== undefined && statePath.trim() === "")
    throw new UsageError(
      "--state: empty; give the file the watch keeps its alerts in, e.g. --state costgate-watch.json",
    );
  if (destinations.length > 0 && statePath === undefined && o["once"] === true)
    throw new UsageError(
      "--state: missing; with --once and a webhook, the state file is what keeps a notification from being sent again next run; e.g. --state costgate-watch.json",
    );
  const concurrency =
    o["concurrency"] === undefined ? 8 : wholeNumber(o["concurrency"], "--concurrency", 1, "--concurrency 8");
  const unit = text(o, "runwayUnit") ?? "days";
  if (unit !== "days" && unit !== "seconds")
    throw new UsageError(`--runway-unit: "${unit}" is not days or seconds; e.g. --runway-unit seconds`);
  return {
    ...t,
    intervalMs: interval.ms,
    runwayUnit: unit,
    listen,
    destinations,
    ...(statePath ? { statePath } : {}),
    once: o["once"] === true,
    gate,
    concurrency,
    warnings: interval.warning ? [interval.warning] : [],
    endpoint: endpointOptions(o),
    // the outbox holds at most 10,000 notifications
    maxInputBytes: inputLimitFrom(o).maxBytes ?? 64 * 1024 * 1024,
  };
}
