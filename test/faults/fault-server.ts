/**
 * A small fault proxy on 127.0.0.1 for what the emulator's knobs cannot do: answer after a
 * delay (slow headers past a timeout), stall in the middle of a body, cut a body short (a reset
 * mid-body, or a complete HTTP answer whose JSON is truncated). Each request takes the next step
 * of `plan`; with the plan used up, requests are forwarded to the upstream untouched.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer. */
export type FaultStep =
  /** Pass the request to the upstream and its answer back. */
  | { kind: "forward" }
  /** Wait `ms` before forwarding (nothing is sent meanwhile: slow headers). */
  | { kind: "slowHeaders"; ms: number }
  /** Forward, send the headers and half the body, then wait `ms` before the rest (a slow body). */
  | { kind: "stallBody"; ms: number }
  /** Forward, send the headers (full Content-Length) and half the body, then destroy the socket. */
  | { kind: "resetMidBody" }
  /** Forward, but send only the first half of the body with a matching Content-Length. */
  | { kind: "truncatedJson" }
  /** Destroy the socket without answering. */
  | { kind: "reset" }
  /** A canned answer. */
  | { kind: "answer"; status: number; body: string; headers?: Record<string, string> }
  /** Bytes that are not HTTP (another protocol on the port), then the end of the connection. */
  | { kind: "notHttp"; data: string }
  /** A 200 whose chunked body never ends: 64 KiB chunks for as long as the client reads. */
  | { kind: "endlessBody" };

/** A running fault proxy. */
export interface FaultServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Steps still to apply, in order; push more at any time. */
  plan: FaultStep[];
  /** Requests received so far. */
  requests: number;
  /** TCP connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

/** resetFaultServer drops the steps not yet applied and the request count (between tests). */
export function resetFaultServer(server: FaultServer): void {
  server.plan.length = 0;
  server.requests = 0;
}

function forward(
  upstream: URL,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const up = request(
      new URL(req.url ?? "/", upstream),
      { method: req.method, headers: { ...req.headers, host: upstream.host }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined || k === "connection" || k === "keep-alive" || k === "transfer-encoding")
              continue;
            headers[k] = Array.isArray(v) ? v.join(", ") : v;
          }
          resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
        res.on("error", reject);
      },
    );
    up.on("error", reject);
    up.end(body);
  });
}

/** startFaultServer listens on 127.0.0.1 port 0 in front of `upstream` (e.g. the emulator's url). */
export async function startFaultServer(upstream: string): Promise<FaultServer> {
  const base = new URL(upstream);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const fs: FaultServer = { url: "", plan: [], requests: 0, connections: 0, close: async () => undefined };

  /** drainOrClose waits for the response to drain or close, and leaves no listener behind either way. */
  const drainOrClose = (res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off("drain", done).off("close", done);
        resolve();
      };
      res.on("drain", done).on("close", done);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    fs.requests += 1;
    const gone = () => res.destroyed || req.socket.destroyed;
    const step = fs.plan.shift() ?? { kind: "forward" };
    if (step.kind === "reset") {
      req.socket.destroy();
      return;
    }
    if (step.kind === "notHttp") {
      req.socket.end(step.data);
      return;
    }
    if (step.kind === "endlessBody") {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      while (!gone()) {
        if (!res.write(chunk)) await drainOrClose(res);
      }
      return;
    }
    if (step.kind === "answer") {
      res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
      res.end(step.body);
      return;
    }
    if (step.kind === "slowHeaders") await wait(step.ms);
    if (gone()) return;
    const up = await forward(base, req, Buffer.concat(chunks));
    if (gone()) return;
    const half = up.body.subarray(0, Math.floor(up.body.length / 2));
    if (step.kind === "truncatedJson") {
      res.writeHead(up.status, { ...up.headers, "content-length": String(half.length) });
      res.end(half);
      return;
    }
    res.writeHead(up.status, { ...up.headers, "content-length": String(up.body.length) });
    if (step.kind === "resetMidBody" || step.kind === "stallBody") {
      res.write(half);
      // let the half reach the client before the cut
      await wait(step.kind === "stallBody" ? step.ms : 20);
      if (step.kind === "resetMidBody") {
        req.socket.destroy();
        return;
      }
      if (!gone()) res.end(up.body.subarray(half.length));
      return;
    }
    res.end(up.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on("connection", (s: Socket) => {
    fs.connections += 1;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fs.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fs.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fs;
}
