/**
 * `costgate watch`: re-read billing every --interval, judge the same rules as `check`, serve the figures
 * to Prometheus (/metrics, /healthz, /readyz) and post alerts that fire once. With --once: one cycle,
 * deliver what is due, save the state, exit (with --gate, check's exit codes). This file orchestrates;
 * the work is in provider/watch/.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { readBounded } from "../../provider/files";
import { cleanText } from "../../provider/text";
import { WatchMetrics } from "../../provider/watch/metrics";
import {
  emptyWatchState,
  parseWatchState,
  serializeWatchState,
  type WatchState,
} from "../../provider/watch/state";
import { type CycleResult, Watcher } from "../../provider/watch/watcher";
import { EXIT, UsageError } from "../errors";
import { writeFileAtomic } from "../files";
import { billingEndpoint } from "../options/billing";
import type { WatchOptions } from "../options/watch";
import { checkText } from "./check";

/** How webhooks are reached: short timeouts, the proxy from the environment; retries are the outbox's. */
const WEBHOOK_TRANSPORT = {
  timeouts: { connectMs: 10_000, headersMs: 10_000, bodyMs: 10_000, totalMs: 15_000 },
};

const log = (line: string) => process.stderr.write(`costgate: ${cleanText(line)}\n`);

/** loadState reads --state; a missing file is a first start. */
function loadState(path: string | undefined, maxBytes: number): WatchState {
  if (path === undefined || !existsSync(path)) return emptyWatchState();
  const text = readBounded(path, {
    field: "--state",
    kind: "settings",
    maxBytes,
    flag: "--max-input-size",
  });
  return parseWatchState(text, "--state");
}

/** exitOf is check's exit code for a cycle's results. */
function exitOf(r: CycleResult): number {
  if (r.results.some((x) => x.evaluation?.verdict === "fail")) return EXIT.violation;
  if (r.results.some((x) => x.error !== undefined)) return EXIT.api;
  if (r.results.some((x) => x.evaluation?.verdict === "none")) return EXIT.usage;
  return EXIT.ok;
}

/** serve answers /metrics, /healthz and /readyz; anything else is 404. It never waits on the API. */
function serve(metrics: WatchMetrics, ready: () => boolean): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("GET only\n");
      return;
    }
    if (path === "/metrics") {
      metrics.exposition().then(
        ({ text, contentType }) => res.writeHead(200, { "content-type": contentType }).end(text),
        () => res.writeHead(500, { "content-type": "text/plain" }).end("metrics could not be collected\n"),
      );
    } else if (path === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
    } else if (path === "/readyz") {
      const ok = ready();
      res
        .writeHead(ok ? 200 : 503, { "content-type": "text/plain" })
        .end(ok ? "ready\n" : "no successful read yet\n");
    } else {
      res
        .writeHead(404, { "content-type": "text/plain" })
        .end("costgate watch serves /metrics, /healthz, /readyz\n");
    }
  });
}

/** watchCommand runs the watch (or one cycle with --once). */
export async function watchCommand(w: WatchOptions): Promise<number> {
  const ep = billingEndpoint(w.endpoint);
  const cap = w.endpoint.runBudget.limit;
  if (w.targets.length * 2 > cap) {
    throw new UsageError(
      `${w.targets.length} projects need at least ${w.targets.length * 2} requests a cycle, more than the cap of ${cap} (--max-requests, counted per cycle); watch fewer projects or raise --max-requests`,
    );
  }
  for (const warning of w.warnings) process.emitWarning(warning, "CostgateWatchWarning");
  const state = loadState(w.statePath, w.maxInputBytes);
  const save = (s: WatchState) => {
    if (w.statePath !== undefined) writeFileAtomic(w.statePath, serializeWatchState(s), "--state");
  };
  const metrics = new WatchMetrics(Date.now, w.runwayUnit);
  // a signal stops the cycle: projects not yet started are left for the next run
  const halt = new AbortController();
  const watcher = new Watcher({
    endpoint: ep,
    targets: w.targets,
    product: w.product,
    concurrency: w.concurrency,
    requestsPerCycle: cap,
    metrics,
    state,
    destinations: w.destinations,
    webhookTransport: WEBHOOK_TRANSPORT,
    // a long-running watch keeps going when the state cannot be written (said once per failure); --once fails
    save: w.once
      ? save
      : (s) => {
          try {
            save(s);
          } catch (e) {
            log(
              `watch: error: ${e instanceof Error ? e.message : String(e)}; kept in memory, written again at the next change`,
            );
          }
        },
    log,
    signal: halt.signal,
  });

  if (w.once) {
    const r = await watcher.cycle(0);
    for (const x of r.results) {
      process.stdout.write(
        x.evaluation ? `${checkText(x.evaluation)}\n` : `Project ${x.projectId}: UNKNOWN\n`,
      );
      if (x.error) process.stderr.write(`costgate: error: project ${x.projectId}: ${x.error}\n`);
    }
    const pending = state.outbox.length;
    process.stdout.write(
      `${r.notifications.length} alert change(s); ${pending === 0 ? "nothing left to deliver" : `${pending} notification(s) kept in --state to deliver next run`}\n`,
    );
    return w.gate ? exitOf(r) : EXIT.ok;
  }

  const server = serve(metrics, () => watcher.ready);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(
        new UsageError(
          `--listen: cannot listen on ${w.listen.host}:${w.listen.port} (${e.code ?? e.message}); choose another port`,
        ),
      ),
    );
    server.listen(w.listen.port, w.listen.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : w.listen.port;
  const host = w.listen.host.includes(":") ? `[${w.listen.host}]` : w.listen.host;
  log(
    `watch: ${w.targets.length} project(s) every ${w.intervalMs / 1000} s; serving http://${host}:${port}/metrics (/healthz, /readyz)`,
  );

  let stopping = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopping = true;
    halt.abort();
    wake?.();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  // deliveries waiting on their backoff are tried every second, between cycles too
  const ticker = setInterval(
    () => void watcher.deliver().catch((e) => log(`watch: error: ${String(e)}`)),
    1000,
  );
  try {
    while (!stopping) {
      await watcher.cycle(Math.floor(w.intervalMs / 2));
      if (stopping) break;
      // the next cycle after the interval, with up to 10 % jitter so many watchers do not read in step
      const wait = Math.round(w.intervalMs * (1 + 0.1 * Math.random()));
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, wait);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    clearInterval(ticker);
    process.removeListener("SIGTERM", stop);
    process.removeListener("SIGINT", stop);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
  try {
    save(state);
  } catch (e) {
    log(`watch: error: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.io;
  }
  log("watch: stopped; state saved");
  return EXIT.ok;
}
