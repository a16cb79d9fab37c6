/**
 * The watch loop's one cycle: read and judge every project (the same `checkProject` as `costgate check`:
 * the same rules, the same model), set the metrics, turn changes into notifications, save the state,
 * deliver what is due. Reads are spread over part of the interval and bounded in number at once; each
 * cycle has its own request cap.
 */
import { randomUUID } from "node:crypto";
import pLimit from "p-limit";
import type { BillingEndpoint } from "../billing/client";
import { type ProductId, productName } from "../billing/products";
import type { Target } from "../budget/targets";
import type { Evaluation } from "../budget/types";
import { checkProject } from "../check";
import { isConfigError, isLimitError, settingName } from "../errors";
import type { TransportOptions } from "../http";
import { cleanText } from "../text";
import { judgeAlerts, type Notification } from "./alerts";
import type { WatchMetrics } from "./metrics";
import { enqueue, type WatchState } from "./state";
import { type Destination, deliverDue } from "./webhooks";

/** What a watcher needs. */
export interface WatcherOptions {
  endpoint: BillingEndpoint;
  targets: readonly Target[];
  product: ProductId;
  /** Projects read at once. */
  concurrency: number;
  /** Requests one cycle may send, retries included; errors name it as the endpoint's `names` say. */
  requestsPerCycle: number;
  metrics: WatchMetrics;
  state: WatchState;
  destinations: readonly Destination[];
  /** The transport of webhook posts (proxy, TLS, timeouts); never the billing endpoint's request cap. */
  webhookTransport: TransportOptions;
  /** Writes the state whole (atomically); called after every change. */
  save: (s: WatchState) => void;
  /** One line for the log (stderr); never a secret. */
  log: (line: string) => void;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** Aborted: the cycle starts no more reads (those under way finish) and waits no more. */
  signal?: AbortSignal;
}

/** What one project's read gave in a cycle. */
export interface ProjectResult {
  projectId: number;
  evaluation?: Evaluation;
  error?: string;
}

/** What one cycle did. */
export interface CycleResult {
  results: ProjectResult[];
  notifications: Notification[];
  /** Requests sent to the billing endpoint. */
  requests: number;
}

/** sleepUnless waits `ms`, or less when `signal` aborts. */
function sleepUnless(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Watcher reads, judges and alerts, one cycle at a time. */
export class Watcher {
  /** True once a read has succeeded (`/readyz`). */
  ready = false;
  private delivering: Promise<void> | undefined;
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly o: WatcherOptions) {
    this.now = o.now ?? (() => new Date());
    this.sleep = o.sleep ?? ((ms) => sleepUnless(ms, o.signal));
    const product = productName(o.product);
    for (const t of o.targets) o.metrics.declare(t.projectId, product);
  }

  /**
   * cycle reads every project once, starting them over `spreadMs` (0: all at once, bounded by the
   * concurrency), then saves the state and delivers what is due.
   */
  async cycle(spreadMs = 0): Promise<CycleResult> {
    const o = this.o;
    const product = productName(o.product);
    const setting = settingName(o.endpoint.transport?.names, "requestsPerCycle");
    const runBudget = { limit: o.requestsPerCycle, used: 0, setting };
    const ep: BillingEndpoint = { ...o.endpoint, transport: { ...o.endpoint.transport, runBudget } };
    const limit = pLimit(o.concurrency);
    const n = o.targets.length;
    const notifications: Notification[] = [];
    const settled = await Promise.all(
      o.targets.map(async ({ projectId, config }, i) => {
        if (spreadMs > 0 && i > 0) await this.sleep(Math.floor((i * spreadMs) / n));
        return limit(async (): Promise<ProjectResult | undefined> => {
          if (o.signal?.aborted) return undefined;
          const now = this.now();
          let r: ProjectResult;
          try {
            const { evaluation } = await checkProject(ep, { projectId, product: o.product, config, now });
            r = { projectId, evaluation };
            o.metrics.record(projectId, product, evaluation, config, now);
            this.ready = true;
          } catch (e) {
            if (isConfigError(e) && !isLimitError(e)) throw e;
            r = {
              projectId,
              error: cleanText(e instanceof Error ? e.message : String(e), { maxLength: 500 }),
            };
            o.metrics.readFailed(projectId, product);
          }
          const outcome = r.evaluation
            ? { ok: true as const, evaluation: r.evaluation }
            : { ok: false as const, error: r.error ?? "" };
          for (const note of judgeAlerts(o.state, projectId, product, outcome, now, randomUUID)) {
            notifications.push(note);
            const dropped = enqueue(
              o.state,
              note,
              o.destinations.map((d) => d.id),
              now,
            );
            if (dropped > 0)
              o.log(
                `watch: the outbox is full: ${dropped} undelivered notification(s) dropped, the oldest first`,
              );
          }
          return r;
        });
      }),
    );
    const results = settled.filter((r): r is ProjectResult => r !== undefined);
    const failed = results.filter((r) => r.error);
    if (failed.length > 0) {
      const first = failed[0] as ProjectResult;
      o.log(
        `watch: ${failed.length} of ${n} project(s) could not be read; the last figures are served (project ${first.projectId}: ${first.error})`,
      );
    }
    o.save(o.state);
    await this.deliver();
    return { results, notifications, requests: runBudget.used };
  }

  /** deliver posts what is due (one round at a time) and saves the state when anything changed. */
  deliver(): Promise<void> {
    if (this.delivering) return this.delivering;
    const o = this.o;
    if (o.state.outbox.length === 0) return Promise.resolve();
    const run = async () => {
      const r = await deliverDue(o.state, o.destinations, o.webhookTransport, this.now, (d, message) =>
        o.log(`watch: webhook ${d.shown}: not delivered (${message}); retried with backoff`),
      );
      if (r.dropped > 0)
        o.log(`watch: ${r.dropped} notification(s) for a webhook no longer configured were dropped`);
      if (r.delivered + r.failed + r.dropped > 0) o.save(o.state);
    };
    this.delivering = run().finally(() => {
      this.delivering = undefined;
    });
    return this.delivering;
  }
}
