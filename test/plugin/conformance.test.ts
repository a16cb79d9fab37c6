/**
 * The provider plugin as the Pulumi engine drives it: the packed tarball installed into a fresh folder,
 * `node_modules/.bin/pulumi-resource-costgate` started from there (engine address as its argument, the
 * port read from stdout), and every method of the provider protocol called over gRPC with Pulumi's own
 * definitions, against the emulator and a real Keystone. Canary secrets go in; none comes out anywhere
 * but inside a secret envelope.
 *
 * PLUGIN_FROM_CHECKOUT=1 runs the checkout's bin/ instead of an install (quicker while developing).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import {
  DIFF_NONE,
  DIFF_SOME,
  isSecret,
  KIND,
  type PluginClient,
  type Props,
  secret,
  startPluginProcess,
  UNKNOWN,
  withoutSecrets,
} from "../helpers/plugin-client";
import { ROOT } from "../helpers/provider-host";
import { addBillingCanaries, CanaryScan, canary, printTally } from "../secrets/canary";

const require = createRequire(import.meta.url);
const { packPackage, installInto } = require("../../scripts/pack-install.js") as {
  packPackage(dest: string, dir?: string): string;
  installInto(dir: string, specs: string[]): string;
};

const APP = "costgate:index:AppCredentialToken";
const PASSWORD = "costgate:index:PasswordToken";
const BALANCE = "costgate:index:getProjectBalance";
const CONSUMPTION = "costgate:index:getProjectConsumption";

let tmp: string;
let program: string;
let emu: Emulator;
let plugin: PluginClient;
const scan = new CanaryScan();
let appCred: { id: string; secret: string };

/** validate asks Keystone (or the emulator) whether it accepts a token: 200, else 401 or 404. */
async function validate(authUrl: string, token: string): Promise<number> {
  const res = await fetch(`${authUrl}/auth/tokens`, {
    headers: { "X-Auth-Token": token, "X-Subject-Token": token },
  });
  await res.arrayBuffer();
  return res.status;
}

async function revoke(authUrl: string, token: string): Promise<void> {
  const res = await fetch(`${authUrl}/auth/tokens`, {
    method: "DELETE",
    headers: { "X-Auth-Token": token, "X-Subject-Token": token },
  });
  await res.arrayBuffer();
}

function identityRequests(): number {
  return emu.requests.filter((r) => r.path.startsWith("/v3")).length;
}

async function start(cwd: string): Promise<PluginClient> {
  const bin =
    process.env.PLUGIN_FROM_CHECKOUT === "1"
      ? join(ROOT, "bin/pulumi-resource-costgate")
      : join(cwd, "node_modules/.bin/pulumi-resource-costgate");
  // the engine's environment: no OS_* / COSTGATE_* settings, a HOME without clouds.yaml
  return startPluginProcess(bin, cwd, { PATH: process.env.PATH ?? "", HOME: tmp });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "costgate-plugin-"));
  program =
    process.env.PLUGIN_FROM_CHECKOUT === "1"
      ? ROOT
      : installInto(join(tmp, "program"), [packPackage(tmp), "@pulumi/pulumi"]);
  emu = await startEmulator({ port: 0 });
  appCred = {
    ...emu.addApplicationCredential({ secret: scan.add("appCredSecret", canary("appcred")) }),
  } as { id: string; secret: string };
  addBillingCanaries(scan, emu);
  plugin = await start(program);
}, 240_000);

afterAll(async () => {
  await plugin?.close();
  await emu?.close();
  printTally("test/plugin/conformance.test.ts", scan);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("the engine's first calls", () => {
  it("prints the port alone on stdout's first line, and nothing else", () => {
    expect(plugin.stdout()).toMatch(/^\d+\n$/);
  });

  it("answers Handshake accepting secrets, GetPluginInfo with the package version", async () => {
    expect(await plugin.handshake()).toEqual({ acceptSecrets: true, acceptResources: false });
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(await plugin.pluginInfo()).toBe(pkg.version);
  });

  it("serves the shipped schema: the resources, functions, names and secrets", async () => {
    const schema = (await plugin.schema()) as {
      name: string;
      resources: Record<
        string,
        {
          inputProperties: Record<string, { secret?: boolean }>;
          properties: Record<string, { secret?: boolean }>;
        }
      >;
      functions: Record<string, unknown>;
      config: { variables: Record<string, { secret?: boolean }> };
    };
    expect(schema).toEqual(JSON.parse(readFileSync(join(ROOT, "schema/pulumi-schema.json"), "utf8")));
    expect(schema.name).toBe("costgate");
    expect(Object.keys(schema.resources).sort()).toEqual([APP, PASSWORD]);
    expect(Object.keys(schema.functions).sort()).toEqual([BALANCE, CONSUMPTION]);
    expect(schema.resources[APP]?.properties.token?.secret).toBe(true);
    expect(schema.resources[APP]?.inputProperties.applicationCredentialSecret?.secret).toBe(true);
    expect(schema.resources[PASSWORD]?.inputProperties.password?.secret).toBe(true);
    expect(schema.config.variables.billingToken?.secret).toBe(true);
  });

  it("answers Attach, GetMapping(s) and Cancel as the engine expects", async () => {
    await plugin.attach();
    expect(await plugin.getMappings()).toEqual([]);
    expect(await plugin.getMapping()).toEqual({ provider: "", data: 0 });
    await plugin.cancel();
  });
});

describe("a release archive", () => {
  it.skipIf(process.env.PLUGIN_FROM_CHECKOUT === "1")(
    "unpacked as the engine unpacks it, its pulumi-resource-costgate serves the schema",
    async () => {
      const { archive } = require("../../scripts/plugin-archive.js") as {
        archive(o: { os: string; arch: string; from: string; out: string }): string;
      };
      const file = archive({ os: "linux", arch: "amd64", from: program, out: tmp });
      expect(file).toMatch(/pulumi-resource-costgate-v\d+\.\d+\.\d+-linux-amd64\.tar\.gz$/);
      const plugins = join(tmp, "plugins/resource-costgate");
      mkdirSync(plugins, { recursive: true });
      execFileSync("tar", ["-xzf", file, "-C", plugins]);
      const unpacked = await startPluginProcess(join(plugins, "pulumi-resource-costgate"), tmp, {
        PATH: process.env.PATH ?? "",
        HOME: tmp,
      });
      try {
        expect(((await unpacked.schema()) as { name: string }).name).toBe("costgate");
      } finally {
        await unpacked.close();
      }
    },
    60_000,
  );
});

describe("configuration", () => {
  it("CheckConfig names each bad key", async () => {
    const r = await plugin.checkConfig({
      insecure: "maybe",
      timeoutSeconds: -1,
      authUrll: "x",
      version: "0.1.0",
    });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["authUrll", "insecure", "timeoutSeconds"]);
    expect(r.failures.find((f) => f.property === "authUrll")?.reason).toMatch(/authUrl, caCert/);
    const ok = await plugin.checkConfig({
      authUrl: emu.identityUrl,
      insecure: "true",
      billingToken: "b".repeat(20),
    });
    expect(ok.failures).toEqual([]);
    expect(isSecret(ok.inputs.billingToken)).toBe(true);
  });

  it("DiffConfig tells no change, then the keys that changed", async () => {
    const a = { authUrl: emu.identityUrl, billingToken: "x".repeat(20) };
    expect((await plugin.diffConfig(a, a)).changes).toBe(DIFF_NONE);
    const d = await plugin.diffConfig(a, { ...a, billingUrl: emu.billingUrl });
    expect(d.changes).toBe(DIFF_SOME);
    expect(d.diffs).toEqual(["billingUrl"]);
    expect(d.replaces).toEqual([]);
  });

  it("Configure refuses a bad value naming the key, and keeps no secret in the message", async () => {
    const err = await plugin
      .configure({ timeoutSeconds: "soon", billingToken: secret(scan.get("billingToken")) })
      .catch((e: Error) => e);
    expect(String(err)).toMatch(/INVALID_ARGUMENT.*timeoutSeconds/);
  });

  it("Configure reads the `variables` when there are no args", async () => {
    const r = await plugin.configure(
      {},
      { "costgate:config:authUrl": emu.identityUrl, "costgate:config:timeoutSeconds": "20" },
    );
    expect(r).toEqual({ acceptSecrets: true, supportsPreview: true });
    const checked = await plugin.check(APP, {
      applicationCredentialId: appCred.id,
      applicationCredentialSecret: secret(appCred.secret),
    });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.authUrl).toBe(emu.identityUrl);
    expect(checked.inputs.timeoutSeconds).toBe(20);
  });

  it("Configure takes args with secrets in envelopes and answers acceptSecrets and supportsPreview", async () => {
    const r = await plugin.configure({
      authUrl: emu.identityUrl,
      billingUrl: emu.billingUrl,
      billingToken: secret(scan.get("billingToken")),
    });
    expect(r).toEqual({ acceptSecrets: true, supportsPreview: true });
  });
});

describe("AppCredentialToken against the emulator", () => {
  const news = () => ({
    applicationCredentialId: appCred.id,
    applicationCredentialSecret: secret(appCred.secret),
  });

  it("Check fills authUrl from the provider's configuration and keeps the secret an envelope", async () => {
    const r = await plugin.check(APP, news());
    expect(r.failures).toEqual([]);
    expect(r.inputs.authUrl).toBe(emu.identityUrl);
    expect(isSecret(r.inputs.applicationCredentialSecret)).toBe(true);
    scan.expectClean("check inputs outside envelopes", JSON.stringify(withoutSecrets(r.inputs)));
  });

  it("Check failures name the field", async () => {
    const cases: [Props, string][] = [
      [{ applicationCredentialId: appCred.id }, "applicationCredentialSecret"],
      [{ ...news(), renewBefore: "soon" }, "renewBefore"],
      [{ ...news(), insecure: "yes" }, "insecure"],
      [{ ...news(), applicationCredentialSecrett: "x" }, "applicationCredentialSecrett"],
      [{ ...news(), authUrl: "ftp://identity" }, "authUrl"],
      [{ ...news(), timeoutSeconds: "ten" }, "timeoutSeconds"],
      [{ ...news(), password: secret("p") }, "password"],
    ];
    for (const [input, field] of cases) {
      const r = await plugin.check(APP, input);
      expect(
        r.failures.map((f) => f.property),
        JSON.stringify(withoutSecrets(input)),
      ).toContain(field);
      for (const f of r.failures) expect(f.reason).toContain(f.property);
    }
  });

  it("preview issues nothing: outputs unknown, no request to the identity endpoint", async () => {
    const { inputs } = await plugin.check(APP, news());
    const before = identityRequests();
    const r = await plugin.create(APP, inputs, true);
    expect(identityRequests()).toBe(before);
    expect(r.id).toBe("");
    expect(isSecret(r.properties.token)).toBe(true);
    expect((r.properties.token as { value: unknown }).value).toBe(UNKNOWN);
    expect(r.properties.expiresAt).toBe(UNKNOWN);
  });

  it("create, diff, update, refresh, delete: the whole life of a token", async () => {
    const { inputs } = await plugin.check(APP, news());
    const created = await plugin.create(APP, inputs);
    const outs = created.properties;
    expect(created.id).toMatch(/\S/);
    expect(isSecret(outs.token)).toBe(true);
    expect(isSecret(outs.applicationCredentialSecret)).toBe(true);
    const token = (outs.token as { value: string }).value;
    scan.add("issued token", token);
    expect(await validate(emu.identityUrl, token)).toBe(200);
    expect(JSON.stringify(outs)).not.toContain('"undefined"');
    scan.expectClean("create outputs outside envelopes", JSON.stringify(withoutSecrets(outs)));

    // no change
    const same = await plugin.diff(APP, created.id, outs, inputs);
    expect(same.changes).toBe(DIFF_NONE);
    expect(same.replaces).toEqual([]);
    // a changed credential: replace, with a detailed diff
    const { inputs: other } = await plugin.check(APP, {
      ...news(),
      applicationCredentialSecret: secret(canary("other")),
    });
    const changed = await plugin.diff(APP, created.id, outs, other);
    expect(changed.changes).toBe(DIFF_SOME);
    expect(changed.replaces).toEqual(["applicationCredentialSecret"]);
    expect(changed.hasDetailedDiff).toBe(true);
    expect(changed.detailed.applicationCredentialSecret).toEqual({
      kind: KIND.UPDATE_REPLACE,
      inputDiff: true,
    });
    // inside the renewal window (the emulator's tokens live an hour): replace
    const { inputs: soon } = await plugin.check(APP, { ...news(), renewBefore: "2h" });
    const renew = await plugin.diff(APP, created.id, outs, soon);
    expect(renew.replaces).toEqual(["expiresAt"]);
    expect(renew.detailed.expiresAt?.kind).toBe(KIND.UPDATE_REPLACE);
    // a setting: update in place
    const { inputs: slower } = await plugin.check(APP, { ...news(), timeoutSeconds: 45 });
    const setting = await plugin.diff(APP, created.id, outs, slower);
    expect(setting).toMatchObject({ changes: DIFF_SOME, replaces: [], diffs: ["timeoutSeconds"] });
    const updated = await plugin.update(APP, created.id, outs, slower);
    expect(updated.timeoutSeconds).toBe(45);
    expect(isSecret(updated.token)).toBe(true);

    // refresh: still accepted
    const read = await plugin.read(APP, created.id, outs, inputs);
    expect(read.id).toBe(created.id);
    expect(isSecret(read.properties.token)).toBe(true);
    // delete revokes
    await plugin.delete(APP, created.id, outs);
    expect([401, 404]).toContain(await validate(emu.identityUrl, token));
    // refresh of a revoked token: gone
    expect((await plugin.read(APP, created.id, outs, inputs)).id).toBe("");
  });

  it("a client that skips Check: Diff and Create check the raw inputs themselves", async () => {
    const raw = { applicationCredentialId: appCred.id, applicationCredentialSecret: secret(appCred.secret) };
    const created = await plugin.create(APP, raw);
    expect(isSecret(created.properties.token)).toBe(true);
    scan.add("raw-created token", (created.properties.token as { value: string }).value);
    expect((await plugin.diff(APP, created.id, created.properties, raw)).changes).toBe(DIFF_NONE);
    const bad = await plugin.create(PASSWORD, { username: "u" }).catch((e: Error) => e);
    expect(String(bad)).toMatch(/INVALID_ARGUMENT.*password/);
    await plugin.delete(APP, created.id, created.properties);
  });

  it("an import by id is refused with a message naming the id", async () => {
    const err = await plugin.read(APP, "some-audit-id", {}).catch((e: Error) => e);
    expect(String(err)).toMatch(/id: a Keystone token cannot be imported/);
  });

  it("a wrong secret: an UNAUTHENTICATED status without the secret", async () => {
    const wrong = scan.add("wrong secret", canary("wrongsecret"));
    const { inputs } = await plugin.check(APP, {
      applicationCredentialId: appCred.id,
      applicationCredentialSecret: secret(wrong),
    });
    const err = (await plugin.create(APP, inputs).catch((e: Error) => e)) as Error & { code: number };
    expect(err.code).toBe(16);
    scan.expectClean("a refused create's error", [err.message, JSON.stringify(err)]);
  });
});

describe("the functions", () => {
  it("getProjectBalance and getProjectConsumption answer from the billing endpoint", async () => {
    const id = emu.seed.billing.demoProjectId;
    const bal = await plugin.invoke(BALANCE, { projectId: id });
    expect(bal.failures).toEqual([]);
    expect(bal.result).toMatchObject({ projectId: id, productId: 1 });
    expect(typeof bal.result.balance).toBe("number");
    const use = await plugin.invoke(CONSUMPTION, { projectId: id, from: "2026-01-01", to: "2026-01-31" });
    expect(use.failures).toEqual([]);
    expect(use.result).toMatchObject({ projectId: id, days: 31 });
    expect(Array.isArray(use.result.items)).toBe(true);
    scan.expectClean("invoke results", [JSON.stringify(bal), JSON.stringify(use)]);
  });

  it("bad arguments are failures naming the argument; an unknown function is named", async () => {
    const r = await plugin.invoke(BALANCE, { projectid: 4242 });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["projectId", "projectid"]);
    const c = await plugin.invoke(CONSUMPTION, { projectId: 4242, from: "2026-01-01", windowDays: "7" });
    expect(c.failures.map((f) => f.property)).toEqual(["windowDays"]);
    const err = await plugin.invoke(BALANCE, { projectId: -1 }).catch((e: Error) => e);
    expect(String(err)).toMatch(/INVALID_ARGUMENT.*projectId/);
    const fn = await plugin.invoke("costgate:index:getNothing", {});
    expect(fn.failures[0]?.property).toBe("tok");
  });

  it("a refused billing token: an error status without the token", async () => {
    const err = (await plugin
      .invoke(BALANCE, { projectId: 4242, billingToken: secret(scan.get("wrong")) })
      .catch((e: Error) => e)) as Error & { code: number };
    expect(err.code).toBe(16);
    scan.expectClean("a refused invoke's error", [err.message, JSON.stringify(err)]);
  });
});

describe.skipIf(!inject("keystone"))("against a real Keystone", () => {
  const ks = () => {
    const k = inject("keystone");
    if (!k) throw new Error("no keystone");
    return k;
  };

  it("AppCredentialToken: a token Keystone accepts, refreshed, revoked on delete, then gone", async () => {
    const k = ks();
    scan.add("keystone appcred secret", k.appCredSecret);
    const { inputs, failures } = await plugin.check(APP, {
      authUrl: k.authUrl,
      applicationCredentialId: k.appCredId,
      applicationCredentialSecret: secret(k.appCredSecret),
    });
    expect(failures).toEqual([]);
    const created = await plugin.create(APP, inputs);
    const token = (created.properties.token as { value: string }).value;
    scan.add("keystone token", token);
    expect(created.properties.projectId).toBe(k.projectId);
    expect(await validate(k.authUrl, token)).toBe(200);
    expect((await plugin.read(APP, created.id, created.properties, inputs)).id).toBe(created.id);
    await plugin.delete(APP, created.id, created.properties);
    expect([401, 404]).toContain(await validate(k.authUrl, token));
    expect((await plugin.read(APP, created.id, created.properties, inputs)).id).toBe("");
  });

  it("PasswordToken: revoked behind the engine's back, refresh reports it gone", async () => {
    const k = ks();
    scan.add("keystone password", k.password);
    const { inputs, failures } = await plugin.check(PASSWORD, {
      authUrl: k.authUrl,
      username: k.userName,
      userDomainName: k.domainName,
      password: secret(k.password),
      projectName: k.projectName,
      projectDomainName: k.domainName,
    });
    expect(failures).toEqual([]);
    expect(isSecret(inputs.password)).toBe(true);
    const created = await plugin.create(PASSWORD, inputs);
    expect(isSecret(created.properties.password)).toBe(true);
    const token = (created.properties.token as { value: string }).value;
    scan.add("keystone password token", token);
    expect(await validate(k.authUrl, token)).toBe(200);
    await revoke(k.authUrl, token);
    expect((await plugin.read(PASSWORD, created.id, created.properties, inputs)).id).toBe("");
    // deleting a token that is already revoked is not an error
    await plugin.delete(PASSWORD, created.id, created.properties);
  });
});

describe("no canary anywhere", () => {
  it("in any answer outside a secret envelope, any error status, or the plugin's output", () => {
    expect(plugin.transcript.length).toBeGreaterThan(30);
    scan.expectClean("answers (envelopes blanked) and errors", plugin.transcript);
    scan.expectClean("the plugin's stdout and stderr", [plugin.stdout(), plugin.stderr()]);
    expect(plugin.stderr()).toBe("");
  });
});
