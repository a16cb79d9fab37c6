/**
 * Delivering notifications: a JSON webhook gets the notification as it is, a Slack incoming webhook
 * gets `{text, blocks}`. Every post goes through the one HTTP transport (provider/http: proxy, TLS,
 * timeouts, redaction). A webhook's URL may carry its secret in the path (Slack's does): it is remembered
 * as a secret of the run, so no message shows it, and it is shown as its origin alone.
 */
import { ConfigError, isCostgateError } from "../errors";
import { send, type TransportOptions } from "../http";
import { cleanText } from "../text";
import type { Notification } from "./alerts";
import { destinationId, type OutboxEntry, retryDelayMs, type WatchState } from "./state";

/** A webhook notifications are posted to. */
export interface Destination {
  /** {@link destinationId}: how the state file names it. */
  id: string;
  kind: "json" | "slack";
  url: string;
  /** How messages name it: its origin, the path left out. */
  shown: string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * parseWebhook checks a webhook URL: https:// (http:// only to a loopback address, for a local relay or a
 * test), no fragment. `field` names the flag in errors, which never show the URL past its origin.
 */
export function parseWebhook(raw: string, kind: Destination["kind"], field: string): Destination {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new ConfigError(
      field,
      "is not a URL; give the webhook's full address, e.g. https://hooks.example/T000/B000/XXXX",
    );
  }
  const shown = u.origin === "null" ? `${u.protocol}//…` : `${u.origin}/…`;
  if (u.protocol !== "https:" && !(u.protocol === "http:" && LOOPBACK.has(u.hostname))) {
    throw new ConfigError(
      field,
      `${shown} is not https://; a webhook URL carries a secret, so it is sent over TLS only (http:// is accepted for 127.0.0.1 and localhost)`,
    );
  }
  if (u.hash)
    throw new ConfigError(field, `${shown}: a URL with a #fragment is not a webhook address; remove it`);
  return { id: destinationId(u.href), kind, url: u.href, shown };
}

/**
 * secretsOf lists what of a webhook URL is secret: its path and query, and each part of them (the
 * origin is not: it is how messages name the webhook).
 */
function secretsOf(d: Destination): string[] {
  const u = new URL(d.url);
  const parts = `${u.pathname}${u.search}`.split(/[/?&=]/);
  return [`${u.pathname}${u.search}`, ...parts.filter((s) => s.length >= 8)].filter((s) => s.length >= 3);
}

const ICON = { firing: "🔴", resolved: "✅" } as const;

/** slackBody is a notification in Slack's incoming-webhook form: `text` and one section block. */
export function slackBody(n: Notification): { text: string; blocks: unknown[] } {
  const word = n.status === "firing" ? "FIRING" : "RESOLVED";
  const text = `${ICON[n.status]} costgate ${word}: project ${n.project} (${n.product}) ${n.rule} [${n.level}]: ${n.message}`;
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}

/** deliverOne posts one notification; it resolves on a 2xx answer and throws otherwise. */
export async function deliverOne(
  d: Destination,
  n: Notification,
  transport: TransportOptions,
): Promise<void> {
  const res = await send({
    service: "webhook",
    method: "POST",
    url: d.url,
    json: d.kind === "slack" ? slackBody(n) : n,
    headers: { "user-agent": "costgate-watch" },
    secrets: secretsOf(d),
    // one attempt: the outbox retries with its own backoff, across restarts
    transport: { ...transport, retry: false },
    idempotent: false,
  });
  if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status}`);
}

/** What one delivery round did. */
export interface DeliveryRound {
  delivered: number;
  failed: number;
  /** Entries whose webhook is no longer configured: dropped. */
  dropped: number;
}

/**
 * deliverDue posts every outbox entry that is due, one at a time per destination and in order, and
 * updates the state in place: a delivered entry leaves the outbox, a failed one is kept with its next
 * attempt after a backoff. `onError` hears each failure, with the destination shown by origin only.
 */
export async function deliverDue(
  s: WatchState,
  destinations: readonly Destination[],
  transport: TransportOptions,
  now: () => Date,
  onError: (d: Destination, message: string) => void = () => {},
): Promise<DeliveryRound> {
  const byId = new Map(destinations.map((d) => [d.id, d]));
  const round: DeliveryRound = { delivered: 0, failed: 0, dropped: 0 };
  const kept = s.outbox.filter((e) => byId.has(e.to));
  round.dropped = s.outbox.length - kept.length;
  s.outbox = kept;
  const blocked = new Set<string>();
  for (const entry of [...s.outbox]) {
    const d = byId.get(entry.to) as Destination;
    // in order per destination: a failed one holds back the later ones
    if (blocked.has(d.id) || Date.parse(entry.nextAt) > now().getTime()) {
      blocked.add(d.id);
      continue;
    }
    try {
      await deliverOne(d, entry.notification, transport);
      s.outbox = s.outbox.filter((e) => e !== entry);
      round.delivered++;
    } catch (e) {
      if (!(isCostgateError(e) || e instanceof Error)) throw e;
      fail(entry, d, e.message, now());
      round.failed++;
      blocked.add(d.id);
      onError(d, entry.lastError ?? "");
    }
  }
  return round;
}

function fail(entry: OutboxEntry, d: Destination, message: string, now: Date): void {
  entry.attempts += 1;
  entry.nextAt = new Date(now.getTime() + retryDelayMs(entry.attempts)).toISOString();
  entry.lastError = cleanText(message, { secrets: secretsOf(d), maxLength: 500 });
}
