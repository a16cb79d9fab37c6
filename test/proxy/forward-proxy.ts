/**
 * A real forward proxy on 127.0.0.1 for the tests and the benchmarks: plain HTTP in absolute form
 * (`POST http://host:port/path HTTP/1.1`) and `CONNECT host:port` tunnels for https, as squid or
 * tinyproxy serve them. Optional Basic credentials (407 with `Proxy-Authenticate` without them), a
 * refusing mode (403 to everything), and a record of what passed through.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";

/** One request the proxy saw. */
export interface ProxiedRequest {
  /** `CONNECT` for a tunnel, else the method of the forwarded request. */
  method: string;
  /** `host:port` for a tunnel, the absolute URL (without query) for a forwarded request. */
  target: string;
  /** Whether a `Proxy-Authorization` header came (its value is never kept). */
  authorized: boolean;
}

/** A running forward proxy. */
export interface ForwardProxy {
  /** `http://127.0.0.1:PORT` (with credentials when the proxy requires them: `http://user:pass@...`). */
  url: string;
  /** The proxy's URL without credentials. */
  bareUrl: string;
  port: number;
  requests: ProxiedRequest[];
  /** Answer every request and CONNECT with this status (403 by default) instead of passing it on. */
  refuse(status?: number | false): void;
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /** Require these Basic credentials. */
  credentials?: { user: string; password: string };
}

const HOP_BY_HOP = ["proxy-authorization", "proxy-connection", "connection", "keep-alive", "te", "upgrade"];

/** startForwardProxy listens on 127.0.0.1, port 0. */
export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  let refusing: number | false = false;
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString("base64")}`
    : undefined;
  const sockets = new Set<Socket>();

  /** The status to answer instead of passing the request on, if any. */
  const gate = (req: IncomingMessage): number | undefined => {
    if (refusing) return refusing;
    if (expected && req.headers["proxy-authorization"] !== expected) return 407;
    return undefined;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? "";
    let target: URL;
    try {
      target = new URL(raw);
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("a proxy needs an absolute URL\n");
      return;
    }
    requests.push({
      method: req.method ?? "",
      target: `${target.origin}${target.pathname}`,
      authorized: req.headers["proxy-authorization"] !== undefined,
    });
    const status = gate(req);
    if (status !== undefined) {
      const headers: Record<string, string> = { "content-type": "text/html" };
      if (status === 407) headers["proxy-authenticate"] = 'Basic realm="costgate test proxy"';
      res.writeHead(status, headers).end(`<html><body>proxy says ${status}</body></html>\n`);
      req.resume();
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const up = request(
      {
        host: target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
      },
      (r) => {
        const back = { ...r.headers };
        for (const h of HOP_BY_HOP) delete back[h];
        res.writeHead(r.statusCode ?? 502, { ...back, via: "1.1 costgate-test-proxy" });
        r.pipe(res);
      },
    );
    up.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("upstream failed\n");
    });
    req.pipe(up);
  });

  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? "";
    requests.push({
      method: "CONNECT",
      target,
      authorized: req.headers["proxy-authorization"] !== undefined,
    });
    client.on("error", () => undefined);
    const status = gate(req);
    if (status !== undefined) {
      const auth = status === 407 ? 'Proxy-Authenticate: Basic realm="costgate test proxy"\r\n' : "";
      client.end(`HTTP/1.1 ${status} Refused\r\n${auth}Content-Length: 0\r\n\r\n`);
      return;
    }
    const at = target.lastIndexOf(":");
    const upstream = connect(
      Number(target.slice(at + 1)),
      target.slice(0, at).replace(/^\[|\]$/g, ""),
      () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
    );
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const bareUrl = `http://127.0.0.1:${port}`;
  const c = options.credentials;
  const url = c
    ? `http://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@127.0.0.1:${port}`
    : bareUrl;
  return {
    url,
    bareUrl,
    port,
    requests,
    refuse(status = 403) {
      refusing = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
