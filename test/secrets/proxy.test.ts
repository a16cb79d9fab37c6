/**
 * Proxy credentials stay secret: a canary password (and user) in the proxy URL, sent through every
 * failure a proxy can cause — it asks for credentials, refuses, cannot be reached, is misconfigured —
 * and through COSTGATE_DEBUG, never appears in an error (message, stack, inspect, cause chain) or a log.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { getBalance } from "../../provider/billing/client";
import { runCli } from "../helpers/cli";
import { type ForwardProxy, startForwardProxy } from "../proxy/forward-proxy";
import { type HttpsFront, startHttpsFront } from "../tls/https-front";
import { CanaryScan, canary, errorTexts, printTally } from "./canary";

const scan = new CanaryScan();
let emu: Emulator;
let proxy: ForwardProxy;
let front: HttpsFront;
let user: string;
let password: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  front = await startHttpsFront(emu.url);
  user = scan.add("proxyUser", canary("proxyuser"));
  password = scan.add("proxyPassword", canary("proxypass"));
  proxy = await startForwardProxy({ credentials: { user, password } });
});
afterAll(async () => {
  printTally("secrets/proxy", scan);
  await Promise.all([emu?.close(), proxy?.close(), front?.close()]);
});

const withCreds = (host: string, u = user, p = password) =>
  `http://${encodeURIComponent(u)}:${encodeURIComponent(p)}@${host}`;

async function failure(baseUrl: string, proxyUrl: string): Promise<unknown> {
  return getBalance(
    {
      baseUrl,
      token: emu.seed.billing.token,
      transport: { proxy: proxyUrl, retry: false, caCert: front.caFile },
    },
    { projectId: 4242 },
  ).then(
    () => new Error("no failure"),
    (e: unknown) => e,
  );
}

describe("proxy credentials in errors", () => {
  it.each([
    [
      "wrong credentials, absolute form (407)",
      () => failure(emu.billingUrl, withCreds(new URL(proxy.url).host, user, `${password}x`)),
    ],
    [
      "wrong credentials, CONNECT (407)",
      () => failure(front.url, withCreds(new URL(proxy.url).host, user, `${password}x`)),
    ],
    ["an unreachable proxy", () => failure(front.url, withCreds("127.0.0.1:9"))],
    [
      "a proxy URL of an unsupported scheme",
      () => failure(front.url, `socks5://${user}:${password}@127.0.0.1:1080`),
    ],
    ["a proxy URL that does not parse", () => failure(front.url, `http://${user}:${password}@[bad`)],
  ])("%s", async (_name, run) => {
    const e = await run();
    scan.expectClean("proxy errors", errorTexts(e));
  });
});

describe("proxy credentials in the command's output", () => {
  it("COSTGATE_DEBUG through an authenticating proxy, on success and on a refusal", async () => {
    const env = {
      COSTGATE_DEBUG: "1",
      COSTGATE_BILLING_URL: front.url,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
      OS_CACERT: front.caFile,
    };
    const ok = await runCli(["balance", "--project-id", "4242"], { ...env, HTTPS_PROXY: proxy.url });
    const refused = await runCli(["balance", "--project-id", "4242", "--retries", "0"], {
      ...env,
      https_proxy: withCreds(new URL(proxy.url).host, user, `${password}x`),
    });
    scan.expectClean("command output", [ok.stdout, ok.stderr, refused.stdout, refused.stderr]);
  });
});
