/**
 * The worst endpoint: every answer echoes the request — its credential headers and its body —
 * inside the error message and as plain text, in Keystone's or GraphQL's error shape. Whatever
 * costgate makes of such an answer must still carry no secret.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** A running echo endpoint; set `status` (and `html`) before each request. */
export interface EchoServer {
  url: string;
  status: number;
  /** Answer with an HTML page that quotes the request instead of JSON. */
  html: boolean;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** startEchoServer listens on 127.0.0.1, port 0. */
export async function startEchoServer(): Promise<EchoServer> {
  const state = { status: 401, html: false };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const echo = `you sent ${JSON.stringify(req.headers)} ${body}`;
    const status = state.status;
    if (state.html) {
      res.writeHead(status, { "content-type": "text/html" });
      res.end(`<html><body><pre>${echo}</pre></body></html>`);
      return;
    }
    const payload = req.url?.startsWith("/bill/graphql")
      ? { errors: [{ message: echo }], data: null }
      : { error: { code: status, title: "Error", message: echo } };
    res.writeHead(status, {
      "content-type": "application/json",
      "x-openstack-request-id": "req-echo",
      "x-subject-token": String(req.headers["x-subject-token"] ?? req.headers["x-user-token"] ?? ""),
    });
    res.end(JSON.stringify(payload));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  const echo: EchoServer = {
    url: `http://127.0.0.1:${port}`,
    get status() {
      return state.status;
    },
    set status(s: number) {
      state.status = s;
    },
    get html() {
      return state.html;
    },
    set html(h: boolean) {
      state.html = h;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
  return echo;
}
