/**
 * What users install is what is proven: `npm pack`'s tarball installed with npm into fresh folders
 * (a Pulumi program with @pulumi/pulumi and @pulumi/policy, a script without Pulumi, and the policy
 * pack folder packed and installed on its own, as `pulumi policy publish` ships it), then used as a
 * user would: require, the README's TypeScript, `node_modules/.bin/costgate`, Pulumi's
 * dynamic-provider host and the analyzer protocol. Nothing here resolves the checkout.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { type PolicyPackProcess, startPolicyPack } from "../helpers/analyzer";
import { ROOT, startProviderHost, unwrapSecrets } from "../helpers/provider-host";
import { tsBlocks } from "./readme";

const require = createRequire(import.meta.url);
const { packPackage, installInto } = require("../../scripts/pack-install.js") as {
  packPackage(dest: string, dir?: string): string;
  installInto(dir: string, specs: string[]): string;
};

let tmp: string;
let tarball: string;
let program: string;
let emu: Emulator;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "costgate-install-"));
  tarball = packPackage(tmp);
  program = installInto(join(tmp, "program"), [tarball, "@pulumi/pulumi", "@pulumi/policy", "@types/node"]);
  emu = await startEmulator({ port: 0 });
}, 180_000);
afterAll(async () => {
  await emu?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** node `code` (or a file) in `cwd`, with only the environment given. */
function node(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(
      process.execPath,
      args,
      { cwd, env: { PATH: process.env.PATH ?? "", HOME: tmp, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => ok({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function demoIdentityEnv(): Record<string, string> {
  const c = emu.seed.applicationCredentials.demo;
  return {
    OS_AUTH_URL: emu.identityUrl,
    OS_APPLICATION_CREDENTIAL_ID: c.id,
    OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
  };
}

describe("the tarball", () => {
  const files = () =>
    execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ""));

  it("has declarations that name no zod type (zod's own do not compile under Pulumi's tsconfig)", () => {
    const dts = files().filter((f) => f.endsWith(".d.ts"));
    expect(dts.length).toBeGreaterThan(10);
    const withZod = dts.filter((f) =>
      /from "zod"|import\("zod"\)/.test(readFileSync(join(program, "node_modules/costgate", f), "utf8")),
    );
    expect(withZod).toEqual([]);
  });

  it("holds only what users run, with its license and changelog", () => {
    const list = files();
    for (const f of ["bin/costgate", "LICENSE", "CHANGELOG.md", "SECURITY.md", "README.md", "package.json"])
      expect(list).toContain(f);
    expect(list).toContain("dist/provider/resources/token-impl.js");
    expect(list).toContain("policies/budget/dist/index.js");
    expect(list).toContain("policies/budget/package.json");
    expect(
      list.filter(
        (f) => /^dist\/bench\/|^scripts\/|^examples\/|^test\/|\.map$|\.ts$/.test(f) && !f.endsWith(".d.ts"),
      ),
    ).toEqual([]);
  });

  it("is small: at most 800 KB packed and 3 MB unpacked", () => {
    expect(statSync(tarball).size).toBeLessThanOrEqual(800 * 1024);
    const unpacked = join(program, "node_modules", "costgate");
    const du = execFileSync("du", ["-sb", unpacked], { encoding: "utf8" });
    expect(Number(du.split("\t")[0])).toBeLessThanOrEqual(3 * 1024 * 1024);
  });

  it("publishes links and no install-time script", () => {
    const pkg = JSON.parse(readFileSync(join(program, "node_modules/costgate/package.json"), "utf8"));
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs?.url).toMatch(/^https:\/\//);
    for (const s of ["prepare", "preinstall", "install", "postinstall"])
      expect(pkg.scripts?.[s]).toBeUndefined();
  });
});

describe("require() in a Pulumi program", () => {
  it("loads the package and its subpaths", async () => {
    const r = await node(program, [
      "-e",
      `const c = require("costgate");
       const out = [typeof c.AppCredentialToken, typeof c.getProjectBalance];
       for (const p of ["identity", "billing", "budget", "emulator"]) out.push(Object.keys(require("costgate/" + p)).length > 0);
       console.log(JSON.stringify(out));`,
    ]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual(["function", "function", true, true, true, true]);
  });

  it("keeps the file serialized providers load, and no other dist/ path", async () => {
    const r = await node(program, [
      "-e",
      `require("costgate/dist/provider/resources/token-impl.js");
       try { require("costgate/dist/provider/index.js"); console.log("open"); } catch (e) { console.log(e.code); }`,
    ]);
    expect(r.stdout.trim()).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });

  it("typechecks every TypeScript block of the README and every entry point's declarations, as a CommonJS Pulumi program", async () => {
    const dir = join(program, "readme");
    mkdirSync(dir, { recursive: true });
    const blocks = tsBlocks();
    blocks.forEach((b, i) => {
      writeFileSync(join(dir, `block-${i + 1}.ts`), b);
    });
    // no skipLibCheck: every declaration file the entry points reach is checked too
    writeFileSync(
      join(dir, "entries.ts"),
      `import * as main from "costgate";
import * as identity from "costgate/identity";
import * as billing from "costgate/billing";
import * as budget from "costgate/budget";
import * as emulator from "costgate/emulator";
export const all = [main, identity, billing, budget, emulator];
`,
    );
    // Pulumi's TypeScript templates: CommonJS, node resolution, strict
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: "es2020",
        module: "commonjs",
        moduleResolution: "node",
        noEmit: true,
        types: ["node"],
      },
      include: ["readme/*.ts"],
    };
    writeFileSync(join(program, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = require.resolve("typescript/bin/tsc");
    const r = await node(program, [tsc, "-p", "tsconfig.json"]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});

describe("require() without Pulumi", () => {
  let bare: string;
  beforeAll(() => {
    bare = installInto(join(tmp, "bare"), [tarball]);
  }, 120_000);

  it("names the missing peer and the install command for the Pulumi surface", async () => {
    const r = await node(bare, ["-e", 'require("costgate")']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("@pulumi/pulumi");
    expect(r.stderr).toContain("npm install @pulumi/pulumi");
  });

  it("issues a token and reads a balance through the Pulumi-free subpaths", async () => {
    const r = await node(
      bare,
      [
        "-e",
        `(async () => {
          const { issueToken, resolveIdentitySettings } = require("costgate/identity");
          const { getBalance, resolveBillingSettings } = require("costgate/billing");
          const s = resolveIdentitySettings({});
          const t = await issueToken({ authUrl: s.authUrl, transport: s.transport }, s.auth);
          const b = await getBalance(resolveBillingSettings({}), { projectId: 4242 });
          console.log(JSON.stringify({ token: t.id.length > 0, balance: typeof b.balance }));
        })();`,
      ],
      {
        ...demoIdentityEnv(),
        COSTGATE_BILLING_URL: emu.billingUrl,
        COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
      },
    );
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ token: true, balance: "number" });
  });
});

describe("node_modules/.bin/costgate", () => {
  const bin = () => join(program, "node_modules", ".bin", "costgate");

  it("prints its version and issues a token", async () => {
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
    expect((await node(program, [bin(), "--version"])).stdout.trim()).toBe(version);
    const r = await new Promise<{ code: number; stdout: string }>((ok) =>
      execFile(
        bin(),
        ["token"],
        { cwd: program, env: { PATH: process.env.PATH ?? "", ...demoIdentityEnv() } },
        (e, stdout) => ok({ code: e ? Number(e.code ?? 1) : 0, stdout }),
      ),
    );
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
  });

  it("reads a balance", async () => {
    const r = await node(program, [bin(), "balance", "--project-id", "4242", "--json"], {
      COSTGATE_BILLING_URL: emu.billingUrl,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ projectId: 4242 });
  });
});

describe("AppCredentialToken through Pulumi's dynamic-provider host, from the install", () => {
  it("serializes a provider that loads the installed costgate, and creates and deletes a token", async () => {
    const c = emu.seed.applicationCredentials.demo;
    // the program registers the resource under Pulumi's mocks and prints what the engine would receive
    writeFileSync(
      join(program, "register.js"),
      `const pulumi = require("@pulumi/pulumi");
       const seen = [];
       pulumi.runtime.setMocks({
         newResource: (a) => { seen.push({ type: a.type, inputs: a.inputs }); return { id: a.name + "-id", state: a.inputs }; },
         call: () => ({}),
       }, "program", "dev", false);
       const { AppCredentialToken } = require("costgate");
       new AppCredentialToken("ci", {
         authUrl: process.env.OS_AUTH_URL,
         applicationCredentialId: process.env.OS_APPLICATION_CREDENTIAL_ID,
         applicationCredentialSecret: pulumi.secret(process.env.OS_APPLICATION_CREDENTIAL_SECRET),
       });
       const wait = () => (seen.length ? setTimeout(() => console.log(JSON.stringify(seen)), 100) : setTimeout(wait, 25));
       wait();`,
    );
    const r = await node(program, ["register.js"], demoIdentityEnv());
    expect(r.stderr).toBe("");
    const [reg] = JSON.parse(r.stdout) as { type: string; inputs: Record<string, unknown> }[];
    const inputs = unwrapSecrets(reg?.inputs) as Record<string, unknown>;
    const text = String(inputs.__provider);
    expect(text).toContain("costgate/dist/provider/resources/token-impl.js");
    expect(text).not.toContain(c.secret);

    const host = await startProviderHost({}, program);
    try {
      await host.configure({});
      const urn = "urn:pulumi:dev::program::pulumi-nodejs:dynamic/costgate:AppCredentialToken::ci";
      const checked = await host.check(urn, {}, inputs);
      expect(checked.failures).toEqual([]);
      const { id, properties } = await host.create(urn, checked.inputs);
      expect(String(properties.token)).toMatch(/^gAAAAA/);
      await host.delete(id, urn, properties);
    } finally {
      await host.close();
    }
  });
});

describe("the policy pack", () => {
  let pack: PolicyPackProcess | undefined;
  afterAll(() => pack?.close());
  const billingEnv = () => ({
    COSTGATE_BILLING_URL: emu.billingUrl,
    COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
  });
  const stack = [{ type: "pulumi:pulumi:Stack", name: "app-dev", props: {} }];

  async function judge(dir: string) {
    pack = await startPolicyPack(billingEnv(), dir);
    const info = await pack.info();
    expect(info.name).toBe("costgate-budget");
    // the other rule policies off on purpose: one that runs unconfigured is a violation of its own
    await pack.configure({
      "min-balance": { enforcementLevel: "mandatory", projectId: 4242, minBalance: 1e12 },
      "monthly-budget": { enforcementLevel: "disabled" },
      "min-runway-days": { enforcementLevel: "disabled" },
      "daily-spike": { enforcementLevel: "disabled" },
    });
    const diagnostics = await pack.analyzeStack(stack);
    pack.close();
    pack = undefined;
    return diagnostics;
  }

  it("runs from node_modules/costgate/policies/budget over the analyzer protocol", async () => {
    const d = await judge(join(program, "node_modules", "costgate", "policies", "budget"));
    expect(d.map((x) => [x.policyName, x.enforcementLevel])).toEqual([["min-balance", "mandatory"]]);
  });

  it("runs as a published pack: the folder packed, installed into an empty directory, run there", async () => {
    const packTarball = packPackage(
      join(tmp, "pack-tarball"),
      join(program, "node_modules", "costgate", "policies", "budget"),
    );
    const dir = join(tmp, "published-pack");
    mkdirSync(dir, { recursive: true });
    execFileSync("tar", ["-xzf", packTarball, "-C", dir, "--strip-components=1"]);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@pulumi/policy",
      "@pulumi/pulumi",
      "costgate",
    ]);
    // what `npm install` in the pack folder does once costgate is on the registry
    installInto(dir, [tarball, "@pulumi/policy", "@pulumi/pulumi"]);
    const d = await judge(dir);
    expect(d.map((x) => x.policyName)).toEqual(["min-balance"]);
  }, 120_000);
});
