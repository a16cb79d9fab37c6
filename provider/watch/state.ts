/**
 * The watch's state file: what is firing, each project's run of failed reads, and the notifications
 * still to deliver. Written whole after every change (the caller writes it atomically), read back at
 * start, so a restart neither repeats nor loses a notification. It holds no secret: a destination is
 * named by a hash of its URL, never by the URL (a Slack webhook's path is its credential).
 */
import { createHash } from "node:crypto";
import { ConfigError } from "../errors";
import { zod } from "../zod";
import { type AlertState, emptyAlertState, type Notification } from "./alerts";

/** The most notifications kept undelivered; past it the oldest are dropped (and counted). */
export const MAX_OUTBOX = 10_000;

/** One notification still to deliver to one destination. */
export interface OutboxEntry {
  /** {@link destinationId} of the webhook. */
  to: string;
  notification: Notification;
  /** Failed attempts so far. */
  attempts: number;
  /** When the next attempt is due, ISO. */
  nextAt: string;
  /** The last failure, cleaned (no URL path, no secret). */
  lastError?: string;
}

/** The whole watch state. */
export interface WatchState extends AlertState {
  version: 1;
  outbox: OutboxEntry[];
}

/** destinationId names a webhook in the state file without its URL: a hash of it. */
export function destinationId(url: string): string {
  return createHash("sha256").update(url).digest("hex").slice(0, 16);
}

/** emptyWatchState is the state of a first start. */
export function emptyWatchState(): WatchState {
  return { version: 1, ...emptyAlertState(), outbox: [] };
}

/** stateSchema is built at a state file's read: zod is required then (provider/zod.ts), not at load. */
function stateSchema() {
  const z = zod();
  const level = z.enum(["mandatory", "advisory", "disabled"]);
  const figure = z.union([z.number(), z.string(), z.boolean(), z.null()]);
  const notification = z.object({
    id: z.string().max(200),
    status: z.enum(["firing", "resolved"]),
    project: z.number().int(),
    product: z.string().max(100),
    rule: z.string().max(100),
    level,
    message: z.string().max(10_000),
    figures: z.record(z.string(), figure),
    at: z.string().max(40),
  });
  return z.object({
    version: z.literal(1),
    firing: z.record(
      z.string(),
      z.object({ project: z.number().int(), rule: z.string().max(100), level, since: z.string().max(40) }),
    ),
    readErrors: z.record(z.string(), z.number().int().nonnegative()),
    outbox: z
      .array(
        z.object({
          to: z.string().max(64),
          notification,
          attempts: z.number().int().nonnegative(),
          nextAt: z.string().max(40),
          lastError: z.string().max(2000).optional(),
        }),
      )
      .max(MAX_OUTBOX),
  });
}

/**
 * parseWatchState reads a state file's text; empty text is a first start. Anything else that is not a
 * state this version wrote is a ConfigError naming `field` (`--state`) and what to do.
 */
export function parseWatchState(text: string, field: string): WatchState {
  if (text.trim() === "") return emptyWatchState();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError(
      field,
      "is not a costgate watch state (not JSON); give the file an earlier watch wrote, or a new path",
    );
  }
  const r = stateSchema().safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ConfigError(
      field,
      `is not a costgate watch state (${issue ? `${issue.path.join(".") || "the top"}: ${issue.message}` : "unknown shape"}); give the file an earlier watch wrote, or a new path`,
    );
  }
  return r.data as WatchState;
}

/** serializeWatchState is the state file's text. */
export function serializeWatchState(s: WatchState): string {
  return `${JSON.stringify(s, null, 1)}\n`;
}

/**
 * enqueue adds a notification for each destination, due now; past {@link MAX_OUTBOX} the oldest entries
 * are dropped. Returns how many were dropped.
 */
export function enqueue(s: WatchState, n: Notification, destinations: readonly string[], now: Date): number {
  for (const to of destinations)
    s.outbox.push({ to, notification: n, attempts: 0, nextAt: now.toISOString() });
  const over = s.outbox.length - MAX_OUTBOX;
  if (over > 0) s.outbox.splice(0, over);
  return Math.max(0, over);
}

/** Backoff of failed deliveries: 1 s, doubling, at most 5 minutes, with up to 20 % jitter. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(300_000, 1000 * 2 ** Math.min(attempts - 1, 20));
  return Math.round(base * (1 + 0.2 * random()));
}
