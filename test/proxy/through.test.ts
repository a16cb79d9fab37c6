/**
 * Keystone and billing through a real forward proxy on 127.0.0.1 (test/proxy/forward-proxy.ts): plain
 * HTTP in absolute form, https through CONNECT with a CA bundle or insecure, credentials in the proxy
 * URL (sent to the proxy, never shown), NO_PROXY, a refusing or unreachable proxy, a cancelled request,
 * and the command with HTTPS_PROXY / HTTP_PROXY. Against the emulator and a real Keystone.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { getBalance } from "../../provider/billing/client";
import { isConfigError, isNetworkError } from "../../provider/errors";
import type { TransportOptions } from "../../provider/http";
import type { AuthMethod } from "../../provider/identity/auth";
import { checkToken, issueToken, revokeToken } from "../../provider/identity/tokens";
import "../keystone/env";
import { runCli } from "../helpers/cli";
import { type HttpsFront, startHttpsFront } from "../tls/https-front";
import { type ForwardProxy, startForwardProxy } from "./forward-proxy";

const PASSWORD = "pr0xy-CANARY-s3cr3t";
const ks = inject("keystone");

let emu: Emulator;
let proxy: ForwardProxy;
let authProxy: ForwardProxy;
let front: HttpsFront;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  proxy = await startForwardProxy();
  authProxy = await startForwardProxy({ credentials: { user: "ci-bot", password: PASSWORD } });
  front = await startHttpsFront(emu.url);
});
afterAll(async () => {
  await Promise.all([emu?.close(), proxy?.close(), authProxy?.close(), front?.close()]);
});
beforeEach(() => {
  proxy.requests.length = 0;
  authProxy.requests.length = 0;
  proxy.refuse(false);
  emu.requests.length = 0;
  emu.resetKnobs();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const demo = (): AuthMethod => {
  const c = emu.seed.applicationCredentials.demo;
  return {
    type: "application_credential",
    applicationCredentialId: c.id,
    applicationCredentialSecret: c.secret,
  };
};
const billing = (baseUrl: string, transport: TransportOptions) => ({
  baseUrl,
  token: emu.seed.billing.token,
  transport: { retry: false as const, ...transport },
});
const hostOf = (u: string) => new URL(u).host;

describe("plain HTTP through the proxy (absolute form)", () => {
  it("issues, checks and revokes a token on the emulator, each request seen by the proxy", async () => {
    const ep = { authUrl: emu.identityUrl, transport: { proxy: proxy.url } };
    const token = await issueToken(ep, demo());
    expect(await checkToken(ep, token.id)).toBe(true);
    await revokeToken(ep, token.id);
    expect(proxy.requests.map((r) => `${r.method} ${r.target}`)).toEqual([
      `POST ${emu.identityUrl}/auth/tokens`,
      `HEAD ${emu.identityUrl}/auth/tokens`,
      `DELETE ${emu.identityUrl}/auth/tokens`,
    ]);
  });

  it("reads the balance from the emulator's billing endpoint", async () => {
    const b = await getBalance(billing(emu.billingUrl, { proxy: proxy.url }), { projectId: 4242 });
    expect(b.balance).toBeGreaterThan(0);
    expect(proxy.requests).toEqual([
      { method: "POST", target: `${emu.billingUrl}/bill/graphql`, authorized: false },
    ]);
  });

  it("takes HTTP_PROXY from the environment, and NO_PROXY bypasses it", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    await getBalance(billing(emu.billingUrl, {}), { projectId: 4242 });
    expect(proxy.requests).toHaveLength(1);
    for (const noProxy of ["127.0.0.1", "127.0.0.0/8", hostOf(emu.billingUrl), "*"]) {
      vi.stubEnv("NO_PROXY", noProxy);
      await getBalance(billing(emu.billingUrl, {}), { projectId: 4242 });
    }
    expect(proxy.requests).toHaveLength(1);
    expect(emu.requests.filter((r) => r.path === "/bill/graphql")).toHaveLength(5);
  });

  it("sends the credentials of the proxy URL to the proxy only, and never shows them", async () => {
    const b = await getBalance(billing(emu.billingUrl, { proxy: authProxy.url }), { projectId: 4242 });
    expect(b.balance).toBeGreaterThan(0);
    expect(authProxy.requests).toEqual([
      { method: "POST", target: `${emu.billingUrl}/bill/graphql`, authorized: true },
    ]);
    const upstream = emu.requests.find((r) => r.path === "/bill/graphql");
    expect(JSON.stringify(upstream?.headers ?? {})).not.toMatch(/proxy-authorization/i);
  });

  it("says the proxy wants credentials when the URL has none (407)", async () => {
    const e = await getBalance(billing(emu.billingUrl, { proxy: authProxy.bareUrl }), {
      projectId: 4242,
    }).catch((x) => x);
    expect(isNetworkError(e)).toBe(true);
    expect(e.message).toMatch(
      new RegExp(
        `the proxy ${authProxy.bareUrl} \\(transport.proxy\\) refused the billing request with HTTP 407`,
      ),
    );
    expect(e.message).toMatch(/put them in the proxy URL/);
  });

  it("names the proxy when it refuses a request (403)", async () => {
    proxy.refuse(403);
    const e = await getBalance(billing(emu.billingUrl, { proxy: proxy.url }), { projectId: 4242 }).catch(
      (x) => x,
    );
    expect(e.message).toMatch(/answered 403/);
    expect(e.message).toContain(`through the proxy ${proxy.bareUrl} from transport.proxy`);
  });
});

describe("https through a CONNECT tunnel", () => {
  it("trusts the endpoint's CA bundle through the tunnel, and reuses the tunnel", async () => {
    const ep = { authUrl: `${front.url}/v3`, transport: { proxy: proxy.url, caCert: front.caFile } };
    const token = await issueToken(ep, demo());
    expect(await checkToken(ep, token.id)).toBe(true);
    expect(proxy.requests).toEqual([{ method: "CONNECT", target: hostOf(front.url), authorized: false }]);
  });

  it("refuses the endpoint's unknown certificate through the tunnel, with the usual hint", async () => {
    const e = await issueToken(
      { authUrl: `${front.url}/v3`, transport: { proxy: proxy.url, retry: false } },
      demo(),
    ).catch((x) => x);
    expect(isNetworkError(e)).toBe(true);
    expect(e.message).toMatch(/TLS certificate verification failed — trust the CA with OS_CACERT/);
    expect(e.message).toContain(`through the proxy ${proxy.bareUrl}`);
  });

  it("connects with insecure through the tunnel", async () => {
    const b = await getBalance(billing(front.url, { proxy: proxy.url, insecure: true }), { projectId: 4242 });
    expect(b.balance).toBeGreaterThan(0);
    expect(proxy.requests[0]?.method).toBe("CONNECT");
  });

  it("authenticates the CONNECT with the proxy URL's credentials", async () => {
    vi.stubEnv("HTTPS_PROXY", authProxy.url);
    const b = await getBalance(billing(front.url, { caCert: front.caFile }), { projectId: 4242 });
    expect(b.balance).toBeGreaterThan(0);
    expect(authProxy.requests).toEqual([{ method: "CONNECT", target: hostOf(front.url), authorized: true }]);
  });

  it("names the proxy and the variable when it refuses the tunnel, without retrying", async () => {
    vi.stubEnv("HTTPS_PROXY", proxy.url);
    proxy.refuse(403);
    const e = await getBalance(
      { baseUrl: front.url, token: emu.seed.billing.token, transport: { caCert: front.caFile } },
      { projectId: 4242 },
    ).catch((x) => x);
    expect(isNetworkError(e)).toBe(true);
    expect(e.message).toMatch(
      new RegExp(
        `the proxy ${proxy.bareUrl} \\(HTTPS_PROXY\\) refused the billing request with HTTP 403: POST https://`,
      ),
    );
    expect(e.message).toMatch(/add the host to NO_PROXY/);
    expect(proxy.requests).toHaveLength(1);
  });
});

describe("a proxy that cannot be used", () => {
  it("names an unreachable proxy and the variable it came from", async () => {
    const closed = await startForwardProxy();
    await closed.close();
    vi.stubEnv("HTTPS_PROXY", closed.url);
    const e = await getBalance(
      {
        baseUrl: front.url,
        token: emu.seed.billing.token,
        transport: { caCert: front.caFile, retry: false },
      },
      { projectId: 4242 },
    ).catch((x) => x);
    expect(isNetworkError(e)).toBe(true);
    expect(e.message).toMatch(
      new RegExp(
        `cannot reach the proxy ${closed.bareUrl} \\(HTTPS_PROXY\\) for the billing endpoint \\(ECONNREFUSED\\)`,
      ),
    );
  });

  it("refuses a proxy URL it cannot use before any request, without echoing it", async () => {
    vi.stubEnv("HTTPS_PROXY", `socks5://u:${PASSWORD}@127.0.0.1:1080`);
    const e = await getBalance(billing(front.url, {}), { projectId: 4242 }).catch((x) => x);
    expect(isConfigError(e) && e.field).toBe("HTTPS_PROXY");
    expect(e.message).not.toContain(PASSWORD);
    expect(emu.requests).toHaveLength(0);
  });
});

describe("cancelling", () => {
  it("ends a request when transport.signal aborts, and does not retry it", async () => {
    emu.knobs.billing.latencyMs = 5_000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const e = await getBalance(
      {
        baseUrl: emu.billingUrl,
        token: emu.seed.billing.token,
        transport: { proxy: proxy.url, signal: controller.signal },
      },
      { projectId: 4242 },
    ).catch((x) => x);
    expect(isNetworkError(e)).toBe(true);
    expect(e.message).toMatch(/the billing request was cancelled/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(proxy.requests).toHaveLength(1);
  });
});

describe("the command through the proxy", () => {
  it("`costgate balance` and `costgate token` use HTTP_PROXY; the debug log says so and hides the password", async () => {
    const c = emu.seed.applicationCredentials.demo;
    const env = {
      HTTP_PROXY: authProxy.url,
      COSTGATE_DEBUG: "1",
      COSTGATE_BILLING_URL: emu.billingUrl,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
      OS_AUTH_URL: emu.identityUrl,
      OS_APPLICATION_CREDENTIAL_ID: c.id,
      OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
    };
    const balance = await runCli(["balance", "--project-id", "4242", "--json"], env);
    expect(balance.code).toBe(0);
    const token = await runCli(["token"], env);
    expect(token.code).toBe(0);
    expect(authProxy.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    for (const r of [balance, token]) {
      expect(r.stderr).toMatch(new RegExp(`via proxy ${authProxy.bareUrl} \\(HTTP_PROXY\\)`));
      expect(r.stderr + r.stdout).not.toContain(PASSWORD);
      expect(r.stderr).not.toContain(Buffer.from(`ci-bot:${PASSWORD}`).toString("base64"));
    }
  });

  it("names the proxy variable that is wrong, never its password", async () => {
    const r = await runCli(["balance", "--project-id", "4242"], {
      HTTP_PROXY: `ftp://u:${PASSWORD}@127.0.0.1:21`,
      COSTGATE_BILLING_URL: emu.billingUrl,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTP_PROXY: ftp:\/\/ proxies are not supported/);
    expect(r.stderr).not.toContain(PASSWORD);
  });
});

describe.skipIf(!ks)("a real Keystone through the proxy", () => {
  it("issues, validates and revokes a token through the proxy, and directly with NO_PROXY", async () => {
    const auth: AuthMethod = {
      type: "application_credential",
      applicationCredentialId: ks!.appCredId,
      applicationCredentialSecret: ks!.appCredSecret,
    };
    const ep = { authUrl: ks!.authUrl, transport: { proxy: authProxy.url } };
    const token = await issueToken(ep, auth);
    expect(token.project?.id).toBe(ks!.projectId);
    expect(await checkToken(ep, token.id)).toBe(true);
    await revokeToken(ep, token.id);
    expect(await checkToken(ep, token.id)).toBe(false);
    expect(authProxy.requests.map((r) => r.method)).toEqual(["POST", "HEAD", "DELETE", "HEAD"]);
    expect(authProxy.requests.every((r) => r.target.startsWith(`${ks!.authUrl}/auth/tokens`))).toBe(true);

    vi.stubEnv("NO_PROXY", "127.0.0.1");
    const direct = await issueToken(ep, auth);
    await revokeToken(ep, direct.id);
    expect(authProxy.requests).toHaveLength(4);
  });
});
