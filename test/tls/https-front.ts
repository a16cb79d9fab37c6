/**
 * HTTPS in front of the emulator: a self-signed certificate for 127.0.0.1, made with openssl at
 * test time in a temp dir, and a node `https` server that passes each request to the emulator.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running HTTPS front. */
export interface HttpsFront {
  /** `https://127.0.0.1:PORT` */
  url: string;
  /** The PEM file of the self-signed certificate: the CA bundle to trust it. */
  caFile: string;
  close(): Promise<void>;
}

/** startHttpsFront serves `upstream` (an http:// URL) over HTTPS on 127.0.0.1, port 0. */
export async function startHttpsFront(upstream: string): Promise<HttpsFront> {
  const dir = mkdtempSync(join(tmpdir(), "costgate-tls-"));
  const key = join(dir, "key.pem");
  const caFile = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", caFile].concat([
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-days",
      "1",
    ]),
    { stdio: "ignore" },
  );
  const up = new URL(upstream);
  const server = createServer({ key: readFileSync(key), cert: readFileSync(caFile) }, (req, res) => {
    const fwd = request(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    fwd.on("error", () => res.destroy());
    req.pipe(fwd);
  });
  // Clients that refuse the certificate end the handshake: not worth a log line.
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caFile,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}
