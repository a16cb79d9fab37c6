/**
 * TLS against a self-signed certificate on 127.0.0.1, in front of the emulator: verification is on
 * by default and its failure says what to do; a CA bundle (caCert, OS_CACERT, --os-cacert) makes
 * it work; the insecure switch (insecure: true, OS_INSECURE, --insecure) works and warns once.
 * Through the library, the costgate command and the dynamic-provider host.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { getBalance } from "../../provider/billing/client";
import { isNetworkError } from "../../provider/errors";
import type { AuthMethod } from "../../provider/identity/auth";
import { checkToken, issueToken, revokeToken } from "../../provider/identity/tokens";
import { runCli } from "../helpers/cli";
import { type ProviderHost, useProviderHost } from "../helpers/provider-host";
import { emulatorNotice } from "../identity/conformance";
import { appCredInputs, URN } from "../lifecycle/lifecycle";
import { type HttpsFront, startHttpsFront } from "./https-front";

/** The command line names its flags; the library and the resources name their arguments (cli/names.ts). */
const VERIFY =
  /TLS certificate verification failed.*OS_CACERT \(--os-cacert\) or, for testing only, --insecure/;
const LIBRARY_VERIFY =
  /TLS certificate verification failed.*OS_CACERT \(caCert\) or, for testing only, insecure: true/;
const WARNING = /CostgateInsecureWarning/g;
/** The command prints costgate's warnings in its own style, once. */
const CLI_WARNING = /^costgate: warning: TLS certificate verification is disabled \(insecure\)/gm;
let emu: Emulator;
let front: HttpsFront;
let cred: AuthMethod;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  front = await startHttpsFront(emu.url);
  const c = emu.seed.applicationCredentials.demo;
  cred = {
    type: "application_credential",
    applicationCredentialId: c.id,
    applicationCredentialSecret: c.secret,
  };
  env = {
    OS_AUTH_URL: `${front.url}/v3`,
    OS_APPLICATION_CREDENTIAL_ID: c.id,
    OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
  };
});
afterAll(async () => {
  await front?.close();
  await emu?.close();
});

describe("the library", () => {
  it("refuses a self-signed certificate by default, naming verification and the fix, without retrying", async () => {
    emu.requests.length = 0;
    const e = await issueToken({ authUrl: `${front.url}/v3` }, cred).catch((x: unknown) => x);
    expect(isNetworkError(e)).toBe(true);
    expect((e as Error).message).toMatch(LIBRARY_VERIFY);
    expect((e as Error).message).not.toMatch(/--os-cacert|--insecure/);
    expect((e as Error).message).toMatch(/SELF_SIGNED|self[- ]signed/i);
    const b = await getBalance(
      { baseUrl: front.url, token: emu.seed.billing.token },
      { projectId: 4242 },
    ).catch((x: unknown) => x);
    expect((b as Error).message).toMatch(LIBRARY_VERIFY);
    expect(emu.requests).toEqual([]);
  });

  it("trusts the certificate given as a CA bundle", async () => {
    const ep = { authUrl: `${front.url}/v3`, transport: { caCert: front.caFile } };
    const t = await issueToken(ep, cred);
    expect(await checkToken(ep, t.id)).toBe(true);
    expect(await revokeToken(ep, t.id)).toBe(true);
    const bal = await getBalance(
      { baseUrl: front.url, token: emu.seed.billing.token, transport: { caCert: front.caFile } },
      { projectId: 4242 },
    );
    expect(bal.projectId).toBe(4242);
  });

  it("skips verification when insecure, with one process warning however many requests", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      const ep = { authUrl: `${front.url}/v3`, transport: { insecure: true } };
      const t = await issueToken(ep, cred);
      expect(await checkToken(ep, t.id)).toBe(true);
      await revokeToken(ep, t.id);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((w) => w.name)).toEqual(["CostgateInsecureWarning"]);
    expect(warnings[0]?.message).toMatch(/verification is disabled.*OS_CACERT/);
  });
});

describe("costgate token", () => {
  it("exits 3 with one line naming certificate verification and OS_CACERT / --os-cacert", async () => {
    const r = await runCli(["token"], env);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(VERIFY);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("works with OS_CACERT or --os-cacert", async () => {
    for (const [args, extra] of [
      [[], { OS_CACERT: front.caFile }],
      [["--os-cacert", front.caFile], {}],
    ] as const) {
      const r = await runCli(["token", ...args], { ...env, ...extra });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^gAAAAAB\S+\n$/);
      expect(r.stderr).toBe(emulatorNotice(front.url));
    }
  });

  it("works with --insecure or OS_INSECURE, and warns once", async () => {
    for (const [args, extra] of [
      [["--insecure"], {}],
      [[], { OS_INSECURE: "1" }],
    ] as const) {
      const r = await runCli(["token", ...args], { ...env, ...extra });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.match(CLI_WARNING)).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\(node:\d+\)/);
    }
  });
});

describe("the token resources through the dynamic-provider host", () => {
  let host: ProviderHost;
  useProviderHost((h) => {
    host = h;
  });

  it("fail to verify by default; work with caCert; work with insecure: true and warn once", async () => {
    const cred = emu.seed.applicationCredentials.demo;
    const target = { authUrl: `${front.url}/v3`, appCredId: cred.id, appCredSecret: cred.secret };
    const failed = await host.create(URN, await appCredInputs(host, target)).catch((x: unknown) => x);
    expect(String((failed as Error).message)).toMatch(LIBRARY_VERIFY);

    const trusted = await host.create(URN, await appCredInputs(host, target, { caCert: front.caFile }));
    expect((await host.read(trusted.id, URN, trusted.properties)).id).toBe(trusted.id);
    await host.delete(trusted.id, URN, trusted.properties);
    expect(host.output()).not.toMatch(WARNING);

    const insecure = await appCredInputs(host, target, { insecure: true });
    for (let i = 0; i < 2; i++) {
      const made = await host.create(URN, insecure);
      await host.delete(made.id, URN, made.properties);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(host.output().match(WARNING)).toHaveLength(1);
  });
});
