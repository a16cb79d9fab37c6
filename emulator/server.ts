/**
 * startEmulator: one node:http server on 127.0.0.1 answering as Keystone v3 (`/`, `/v3`,
 * `/v3/auth/tokens`) and as the billing GraphQL endpoint (`/bill/graphql`).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type BillingProjectInput, BillingStore } from "./billing/data";
import { dayIndexOf } from "./billing/days";
import { handleBilling } from "./billing/routes";
import { billingSchema } from "./billing/schema";
import { guard, hostOf, isJson, notJson } from "./guard";
import {
  jsonReply,
  MAX_BODY_BYTES,
  type RecordedRequest,
  readBody,
  record,
  TOO_LARGE,
  writeReply,
} from "./http";
import { Directory } from "./identity/directory";
import { handleIdentity } from "./identity/routes";
import { TokenStore } from "./identity/tokens";
import { applyKnobs, defaultKnobs, KNOBS_PATH, type Knobs } from "./knobs";
import {
  buildSeed,
  DEFAULT_SEED,
  type SeedApplicationCredential,
  type SeedData,
  type SeedUser,
} from "./seed";

/** EmulatorOptions configure startEmulator; every field is optional. */
export interface EmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (a free port). */
  port?: number;
  /** Seed of all generated ids, credentials and charges; default "demo". */
  seed?: number | string;
  /** Lifetime of issued identity tokens in seconds; default 3600. */
  tokenTtlSeconds?: number;
  /** Clock for issued_at/expires_at, token expiry and billing's "today"; default the real clock. */
  now?: () => Date;
  /**
   * More names a request's `Host` may give besides loopback names and the listen address (a
   * container's service name, say); any other `Host` is refused with 403 (DNS rebinding).
   */
  allowedHosts?: string[];
}

/** The most requests `Emulator.requests` keeps: older ones are dropped first. */
export const MAX_RECORDED_REQUESTS = 10_000;
/** The most bytes (bodies and headers, as text) `Emulator.requests` keeps: older requests are dropped first. */
export const MAX_RECORDED_BYTES = 16 * 1024 * 1024;

/** Emulator is a running emulator. */
export interface Emulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The identity base address, `url + "/v3"` (OS_AUTH_URL). */
  identityUrl: string;
  /** The billing base address: clients POST to `billingUrl + "/bill/graphql"`. */
  billingUrl: string;
  /** The seeded credentials and ids. */
  seed: SeedData;
  /** Run-time switches: faults, latency, representation. Mutate freely. */
  knobs: Knobs;
  /**
   * The requests received, in order (clear with `requests.length = 0`): the last
   * {@link MAX_RECORDED_REQUESTS}, and fewer when they pass {@link MAX_RECORDED_BYTES}.
   */
  requests: RecordedRequest[];
  /** setProject adds or replaces a billing project. */
  setProject(project: BillingProjectInput): void;
  /** removeProject deletes a billing project. */
  removeProject(id: number): void;
  /** addSyntheticProjects seeds `count` generated billing projects from `firstId` (default 100000); returns their ids. */
  addSyntheticProjects(count: number, firstId?: number): number[];
  /**
   * addUser adds a user with a chosen password (a test's canary, say) in the Default domain (or
   * `domainId`), with the member and reader roles on `projectIds` (default: the demo project).
   *
   * @example const user = emu.addUser({ password: `canary-${randomUUID()}` });
   */
  addUser(user: { password: string; name?: string; domainId?: string; projectIds?: string[] }): SeedUser;
  /**
   * addApplicationCredential adds an application credential with a chosen secret, of `userId`
   * (default: the demo user), bound to `projectId` (default: the demo project).
   *
   * @example const cred = emu.addApplicationCredential({ secret: `canary-${randomUUID()}` });
   */
  addApplicationCredential(cred: {
    secret: string;
    name?: string;
    userId?: string;
    projectId?: string;
  }): SeedApplicationCredential;
  /** billingProjectIds lists the billing project ids now known. */
  billingProjectIds(): number[];
  /** resetKnobs restores healthy knobs in place. */
  resetKnobs(): void;
  /** close stops the server and drops open connections. */
  close(): Promise<void>;
}

/**
 * startEmulator starts the emulator and resolves once it listens.
 *
 * @example
 * const emu = await startEmulator({ seed: "demo" });
 * const res = await fetch(`${emu.identityUrl}/auth/tokens`, { method: "POST", body: JSON.stringify(body) });
 * await emu.close();
 */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const host = opts.host ?? "127.0.0.1";
  const now = opts.now ?? (() => new Date());
  const ttl = opts.tokenTtlSeconds ?? 3600;
  if (!(ttl > 0)) throw new RangeError(`tokenTtlSeconds must be a positive number of seconds, got ${ttl}`);
  const seedValue = opts.seed ?? DEFAULT_SEED;
  const { data: seed, billingProjects } = buildSeed(seedValue, dayIndexOf(now().getTime()));

  const store = new BillingStore(String(seedValue));
  for (const p of billingProjects) store.setProject(p);
  const dir = new Directory(seed);
  const tokens = new TokenStore(now, ttl);
  const schema = billingSchema();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const emu: Emulator = {
    url: "",
    identityUrl: "",
    billingUrl: "",
    seed,
    knobs: defaultKnobs(),
    requests: [],
    setProject: (p) => store.setProject(p),
    removeProject: (id) => store.removeProject(id),
    addSyntheticProjects: (count, firstId = 100_000) => store.addSynthetic(count, firstId),
    billingProjectIds: () => store.projectIds(),
    addUser(u) {
      const domain = dir.domain({ id: u.domainId ?? seed.domains.default.id });
      if (!domain) throw new RangeError(`addUser: no domain ${u.domainId}`);
      const id = randomBytes(16).toString("hex");
      const user: SeedUser = {
        id,
        name: u.name ?? `user-${id.slice(0, 8)}`,
        domain,
        password: u.password,
        projectIds: u.projectIds ?? [seed.projects.demo.id],
      };
      dir.addUser(user);
      return user;
    },
    addApplicationCredential(c) {
      const id = randomBytes(16).toString("hex");
      const cred: SeedApplicationCredential = {
        id,
        name: c.name ?? `appcred-${id.slice(0, 8)}`,
        secret: c.secret,
        userId: c.userId ?? seed.users.demo.id,
        projectId: c.projectId ?? seed.projects.demo.id,
      };
      dir.addAppCred(cred);
      return cred;
    },
    resetKnobs() {
      const fresh = defaultKnobs();
      for (const key of ["billing", "identity"] as const) {
        const k = emu.knobs[key] as unknown as Record<string, unknown>;
        for (const name of Object.keys(k)) delete k[name];
        Object.assign(k, fresh[key]);
      }
    },
    close: () => Promise.resolve(),
  };

  /**
   * The knob control (KNOBS_PATH), for a test or CI job driving `costgate emulator` from outside:
   * not recorded in `requests` and never faulted itself.
   */
  function control(method: string, raw: string, contentType: string | undefined) {
    if (method === "DELETE") emu.resetKnobs();
    else if (method === "PUT" || method === "PATCH" || method === "POST") {
      if (!isJson(contentType)) return notJson();
      let patch: unknown;
      try {
        patch = JSON.parse(raw);
      } catch {
        return jsonReply(400, {
          error: { code: 400, message: 'the body is not JSON; send e.g. {"billing": {"status": 503}}' },
        });
      }
      try {
        applyKnobs(emu.knobs, patch);
      } catch (e) {
        return jsonReply(400, { error: { code: 400, message: (e as Error).message } });
      }
    } else if (method !== "GET") {
      return jsonReply(
        405,
        { error: { code: 405, message: "use GET, PUT or DELETE" } },
        { Allow: "GET, PUT, DELETE" },
      );
    }
    return jsonReply(200, emu.knobs);
  }

  /** keep adds a request to `emu.requests`, dropping the oldest past the count and byte bounds. */
  const sizes = new WeakMap<RecordedRequest, number>();
  let kept = { list: emu.requests, count: 0, bytes: 0 };
  function keep(rec: RecordedRequest): void {
    const list = emu.requests;
    const sizeOf = (r: RecordedRequest) => sizes.get(r) ?? 0;
    // a test cleared or replaced the list: count again
    if (kept.list !== list || kept.count !== list.length) {
      kept = { list, count: list.length, bytes: list.reduce((n, r) => n + sizeOf(r), 0) };
    }
    const size =
      rec.rawBody.length + Object.entries(rec.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
    sizes.set(rec, size);
    list.push(rec);
    kept.bytes += size;
    while (list.length > MAX_RECORDED_REQUESTS || (kept.bytes > MAX_RECORDED_BYTES && list.length > 1)) {
      const dropped = list.shift();
      if (dropped) kept.bytes -= sizeOf(dropped);
    }
    kept.count = list.length;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = guard(req.headers.host, req.headers.origin, {
      listen: host,
      allowed: opts.allowedHosts ?? [],
    });
    if (refused) {
      req.resume();
      writeReply(req, res, refused);
      return;
    }
    const raw = await readBody(req);
    if (raw === TOO_LARGE) {
      const message = `the request body is larger than ${MAX_BODY_BYTES} bytes, the most the emulator takes`;
      writeReply(
        req,
        res,
        jsonReply(
          413,
          { error: { code: 413, title: "Payload Too Large", message } },
          { Connection: "close" },
        ),
      );
      return;
    }
    if ((req.url ?? "").split("?")[0] === KNOBS_PATH) {
      writeReply(req, res, control(req.method ?? "GET", raw, req.headers["content-type"]));
      return;
    }
    const rec = record(req, raw, now());
    keep(rec);
    const billing = rec.path === "/bill/graphql";
    const latency = (billing ? emu.knobs.billing : emu.knobs.identity).latencyMs;
    if (latency && latency > 0) await sleep(latency);
    if (closed) return;
    const answer = billing
      ? handleBilling({ schema, store, seed, knobs: () => emu.knobs.billing, now }, rec)
      : handleIdentity(
          { seed, dir, tokens, knobs: () => emu.knobs.identity },
          rec,
          // the Host as checked by guard, normalized (lower case, no default port)
          req.headers.host ? (hostOf(req.headers.host)?.origin ?? emu.url) : emu.url,
        );
    writeReply(req, res, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      const body = {
        error: { code: 500, message: `emulator error: ${message}`, title: "Internal Server Error" },
      };
      writeReply(req, res, jsonReply(500, body));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  emu.url = `http://${urlHost}:${port}`;
  emu.identityUrl = `${emu.url}/v3`;
  emu.billingUrl = emu.url;
  emu.close = () =>
    new Promise<void>((resolve, reject) => {
      if (closed) return resolve();
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections();
    });
  return emu;
}
