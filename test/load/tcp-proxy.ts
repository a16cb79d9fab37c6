/**
 * A counting TCP proxy on 127.0.0.1: pipes bytes to an upstream and records the client ports it
 * saw, so a test can tell how many connections a client opened (keep-alive reuse).
 */

import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";

/** A running counting proxy. */
export interface TcpProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Remote ports of the accepted connections, in order. */
  clientPorts: number[];
  /** Connections open now. */
  open(): number;
  close(): Promise<void>;
}

/** startTcpProxy forwards 127.0.0.1:<free port> to `upstream` (an http://host:port URL). */
export async function startTcpProxy(upstream: string): Promise<TcpProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const clientPorts: number[] = [];
  const server = createServer((client) => {
    clientPorts.push(client.remotePort ?? 0);
    const up = connect(Number(target.port), target.hostname);
    for (const s of [client, up]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.on("close", () => up.destroy());
    up.on("close", () => client.destroy());
    client.pipe(up);
    up.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    clientPorts,
    open: () => [...sockets].length / 2,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
