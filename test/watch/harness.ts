/**
 * What the watch tests share: a webhook receiver that counts what it gets (and can refuse, to test
 * retries), a running `costgate watch` as a process (its port read from its first line), and a wait.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";

const BIN = resolve(__dirname, "../../bin/costgate");

/** A webhook receiver on 127.0.0.1: every body it got, parsed; `refuse` answers 500 that many times. */
export interface Receiver {
  url: string;
  bodies: Record<string, unknown>[];
  /** How many posts to answer 500 before accepting again. */
  refuse: number;
  /** Every post, accepted or not. */
  posts: number;
  close(): Promise<void>;
}

/** startReceiver starts a webhook receiver; `path` may hold a secret, as Slack's does. */
export async function startReceiver(path = "/hook"): Promise<Receiver> {
  const r: Receiver = { url: "", bodies: [], refuse: 0, posts: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      r.posts++;
      if (r.refuse > 0) {
        r.refuse--;
        res.writeHead(500).end("not now");
        return;
      }
      if (req.url !== path) {
        res.writeHead(404).end();
        return;
      }
      r.bodies.push(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  r.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return r;
}

/** A running `costgate watch`. */
export interface WatchProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT */
  url: string;
  stderr: () => string;
  stdout: () => string;
  /** stop sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** startWatch runs `costgate watch args` with only `env` (and PATH) and waits until it serves. */
export async function startWatch(args: string[], env: Record<string, string>): Promise<WatchProcess> {
  const child = spawn(BIN, ["watch", "--listen", "127.0.0.1:0", ...args], {
    env: { PATH: process.env["PATH"] ?? "", HOME: "/nonexistent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  let out = "";
  child.stdout?.on("data", (c) => {
    out += c;
  });
  const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`watch did not start: ${err}`)), 20_000);
    child.stderr?.on("data", (c) => {
      err += c;
      const m = /serving (http:\/\/[^/\s]+)\/metrics/.exec(err);
      if (m) {
        clearTimeout(timer);
        ok(m[1] as string);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`watch exited ${code} before serving: ${err}`));
    });
  });
  return {
    child,
    url,
    stderr: () => err,
    stdout: () => out,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** waitFor polls `check` until it is truthy, or fails after `ms` naming `what`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** metricValue is the value of one series of an exposition, or undefined when absent. */
export function metricValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf("}"));
    const got = Object.fromEntries([...body.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v))
      return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

/** series is daily charges for the last `days` days of `amount` each (today included). */
export function series(
  amount: number,
  days = 90,
): { day: string; totalAmount: number; totalBonuses: number }[] {
  const today = Date.now();
  return Array.from({ length: days }, (_, i) => ({
    day: new Date(today - i * 86_400_000).toISOString().slice(0, 10),
    totalAmount: amount,
    totalBonuses: 0,
  }));
}
