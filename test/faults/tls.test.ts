/**
 * TLS through the HTTP layer: a self-signed endpoint (openssl, 127.0.0.1) in front of the
 * emulator is refused without its CA, reached with `caCert` or `insecure`, and a TLS handshake
 * that never completes ends in a connect timeout, retried even for token issue (nothing was sent).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { isConfigError, isNetworkError, isTimeoutError } from "../../provider/errors";
import type { AuthMethod } from "../../provider/identity/auth";
import { issueToken, validateToken } from "../../provider/identity/tokens";
import { demoCredential, TIMER_SLACK_MS, testRetry, timed, watchUnhandled } from "./helpers";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasOpenssl())("TLS", () => {
  let dir: string;
  let emu: Emulator;
  let tls: HttpsServer;
  let silent: TcpServer;
  let tlsUrl: string;
  let silentUrl: string;
  const sockets = new Set<Socket>();
  let connections = 0;
  let watch: ReturnType<typeof watchUnhandled>;
  const cred = (): AuthMethod => demoCredential(emu);

  beforeAll(async () => {
    watch = watchUnhandled();
    dir = mkdtempSync(join(tmpdir(), "costgate-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    emu = await startEmulator({ port: 0 });
    const upstream = new URL(emu.url);
    tls = createHttpsServer(
      { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
      (req, res) => {
        const up = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        req.pipe(up);
      },
    );
    tls.on("connection", () => connections++);
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/v3`;
    // accepts TCP and says nothing: the TLS handshake never completes
    silent = createTcpServer((s) => {
      sockets.add(s);
      s.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentUrl = `https://127.0.0.1:${(silent.address() as AddressInfo).port}/v3`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent?.close(r));
    tls?.closeAllConnections();
    await new Promise((r) => tls?.close(r));
    await emu?.close();
    rmSync(dir, { recursive: true, force: true });
    watch.stop();
    expect(watch.seen).toEqual([]);
  });

  it("refuses a self-signed certificate without its CA, and does not retry that", async () => {
    connections = 0;
    const e = await issueToken({ authUrl: tlsUrl, transport: { retry: testRetry().retry } }, cred()).catch(
      (x) => x,
    );
    expect(isNetworkError(e)).toBe(true);
    expect(e.message).toMatch(
      /cannot reach the identity endpoint \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED)/,
    );
    expect(connections).toBe(1);
  });

  it("trusts the certificate given as caCert, and reuses the connection", async () => {
    connections = 0;
    const ep = { authUrl: tlsUrl, transport: { caCert: join(dir, "cert.pem") } };
    const token = await issueToken(ep, cred());
    expect(await validateToken(ep, token.id)).not.toBeNull();
    expect(connections).toBe(1);
  });

  it("connects with insecure: true", async () => {
    const token = await issueToken({ authUrl: tlsUrl, transport: { insecure: true } }, cred());
    expect(token.id.length).toBeGreaterThan(10);
  });

  it("names an unreadable CA bundle as a ConfigError before any request", async () => {
    connections = 0;
    const e = await issueToken(
      { authUrl: tlsUrl, transport: { caCert: join(dir, "missing.pem") } },
      cred(),
    ).catch((x) => x);
    expect(isConfigError(e) && e.field).toBe("cacert");
    expect(connections).toBe(0);
  });

  it("says so when https:// reaches a server speaking plain HTTP", async () => {
    const plain = emu.identityUrl.replace("http://", "https://");
    const e = await issueToken({ authUrl: plain, transport: { retry: false } }, cred()).catch((x) => x);
    expect(isNetworkError(e)).toBe(true);
    expect(e.message).toMatch(/does not speak TLS there; is the URL http:\/\/ rather than https:\/\//);
  });

  it("times out a handshake that never completes, retrying even token issue (nothing was sent)", async () => {
    const { retry, delays } = testRetry();
    const { error, ms } = await timed(() =>
      issueToken({ authUrl: silentUrl, transport: { retry, timeouts: { connectMs: 250 } } }, cred()),
    );
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /identity request timed out while connecting \(250 ms\).*\(3 attempts\)/,
    );
    expect(delays).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(3 * 250 - 20);
    expect(ms).toBeLessThan(3 * (250 + TIMER_SLACK_MS) + 1_000);
  });
});
