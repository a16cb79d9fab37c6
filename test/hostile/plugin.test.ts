/**
 * The provider plugin against a hostile identity and billing endpoint, and hostile requests from its own
 * side of the protocol: every case ends in an answer (a status naming the field, or failures) in bounded
 * time, with no secret in it, and the plugin keeps serving.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PluginClient,
  type Props,
  secret,
  startPluginProcess,
  withoutSecrets,
} from "../helpers/plugin-client";
import { ROOT } from "../helpers/provider-host";
import { CanaryScan, canary } from "../secrets/canary";
import { type HostileServer, startHostileServer, tokenAnswer, wellFormed } from "./server";

const require = createRequire(import.meta.url);
const pb = require("@pulumi/pulumi/proto/provider_pb");
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");

const APP = "costgate:index:AppCredentialToken";
const BALANCE = "costgate:index:getProjectBalance";

let hostile: HostileServer;
let plugin: PluginClient;
const scan = new CanaryScan();
const appSecret = scan.add("appCredSecret", canary("appcred"));
const billingToken = scan.add("billingToken", canary("billing"));

beforeAll(async () => {
  hostile = await startHostileServer();
  plugin = await startPluginProcess(join(ROOT, "bin/pulumi-resource-costgate"), ROOT, {
    PATH: process.env.PATH ?? "",
    HOME: "/nonexistent",
  });
  await plugin.configure({
    authUrl: hostile.authUrl,
    billingUrl: hostile.url,
    billingToken: secret(billingToken),
    timeoutSeconds: 2,
  });
}, 60_000);

afterAll(async () => {
  await plugin?.close();
  await hostile?.close();
});

async function inputs(): Promise<Props> {
  const r = await plugin.check(APP, {
    applicationCredentialId: "ac-1",
    applicationCredentialSecret: secret(appSecret),
  });
  expect(r.failures).toEqual([]);
  return r.inputs;
}

/** timed runs `f` and fails when it takes longer than `ms`. */
async function timed<T>(ms: number, f: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  const r = await f();
  expect(Date.now() - t0).toBeLessThan(ms);
  return r;
}

describe("a hostile endpoint", () => {
  it("echoing the secrets in a 401: the status names no secret", async () => {
    hostile.answer = (req) =>
      req.operation === "token"
        ? {
            status: 401,
            body: { error: { code: 401, message: `bad secret ${appSecret} for ${billingToken}` } },
          }
        : wellFormed(req);
    const err = (await plugin.create(APP, await inputs()).catch((e: Error) => e)) as Error & { code: number };
    expect(err.code).toBe(16);
    scan.expectClean("create error", [err.message, JSON.stringify(err)]);
  });

  it("that never answers: DEADLINE_EXCEEDED or UNAVAILABLE within the configured timeout, then serves on", async () => {
    hostile.answer = () => new Promise(() => {});
    const err = (await timed(20_000, () =>
      plugin.invoke(BALANCE, { projectId: 4242 }).catch((e: Error) => e),
    )) as Error & { code: number };
    expect([4, 14]).toContain(err.code);
    expect(await plugin.pluginInfo()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answering HTML, garbage JSON or a huge body: an error status, no crash", async () => {
    const answers = [
      { status: 502, body: "<html><body>Bad gateway</body></html>" },
      { status: 200, body: "{not json" },
      { status: 200, body: { data: { getSubscriptionBalance: "x".repeat(5_000_000) } } },
    ];
    for (const a of answers) {
      hostile.answer = () => a;
      const err = (await timed(20_000, () =>
        plugin.invoke(BALANCE, { projectId: 4242 }).catch((e: Error) => e),
      )) as Error & { code?: number };
      expect(err).toBeInstanceOf(Error);
      expect(err.message).not.toContain("<html>");
      scan.expectClean("invoke error", [err.message]);
    }
    expect(await plugin.pluginInfo()).toMatch(/^\d/);
  });

  it("a token answer with odd catalog values: outputs hold no undefined, the token stays a secret", async () => {
    hostile.answer = (req) =>
      req.operation === "token"
        ? tokenAnswer(hostile.url, {
            catalog: [
              { type: "compute", endpoints: [{ interface: "public", url: "https://c.example/v2.1" }] },
            ],
          })
        : wellFormed(req);
    const r = await plugin.create(APP, await inputs());
    expect(JSON.stringify(withoutSecrets(r.properties))).not.toContain("gAAAAABhostile");
    expect(r.properties.catalog).toBeInstanceOf(Array);
  });
});

describe("hostile requests", () => {
  it("a resource type the plugin does not serve: INVALID_ARGUMENT naming the type", async () => {
    const err = await plugin.check("costgate:index:Nope", {}).catch((e: Error) => e);
    expect(String(err)).toMatch(/INVALID_ARGUMENT.*type.*costgate:index:Nope/);
  });

  it("a __proto__ key in the inputs sets nothing", async () => {
    const req = new pb.CheckRequest();
    req.setUrn(`urn:pulumi:t::p::${APP}::x`);
    req.setType(APP);
    req.setOlds(Struct.fromJavaScript({}));
    req.setNews(Struct.fromJavaScript(JSON.parse('{"__proto__": {"authUrl": "http://evil.example/v3"}}')));
    const res = await plugin.rawCall<{ getInputs(): { toJavaScript(): Props } }>("check", req);
    expect(JSON.stringify(res.getInputs().toJavaScript())).not.toContain("evil");
  });

  it("values of the wrong type, deep secrets, and a megabyte string: failures naming the field, in bounded time", async () => {
    const r = await timed(5_000, () =>
      plugin.check(APP, {
        applicationCredentialId: { nested: [secret(appSecret)] },
        applicationCredentialSecret: secret([appSecret]),
        username: "u".repeat(1_000_000),
        insecure: secret("yes"),
      }),
    );
    expect(r.failures.map((f) => f.property).sort()).toEqual([
      "applicationCredentialId",
      "applicationCredentialSecret",
      "insecure",
    ]);
    scan.expectClean("check failures", JSON.stringify(r.failures));
  });

  it("an invoke with arguments of every wrong kind: failures, never a crash", async () => {
    for (const args of [
      { projectId: [1] },
      { projectId: { a: 1 } },
      { projectId: true },
      { projectId: null },
    ]) {
      const r = await plugin.invoke(BALANCE, args as Props);
      expect(r.failures[0]?.property).toBe("projectId");
    }
    expect(plugin.stderr()).toBe("");
  });
});
