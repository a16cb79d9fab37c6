/**
 * Pulumi's own dynamic-provider host, started as `pulumi up` starts it, driven over gRPC.
 * Also: the inputs (with `__provider`) a real program registers, captured under Pulumi mocks.
 */
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { call, startPlugin } from "./grpc-process";

const require = createRequire(import.meta.url);
export const ROOT = resolve(__dirname, "../..");
const grpc = require("@grpc/grpc-js");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");

export type Props = Record<string, unknown>;

/** A running dynamic-provider host and a client for it. */
export interface ProviderHost {
  configure(config?: Record<string, string>): Promise<void>;
  check(
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }>;
  diff(
    id: string,
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes: number; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(urn: string, props: Props): Promise<{ id: string; properties: Props }>;
  read(id: string, urn: string, props: Props): Promise<{ id: string; properties: Props }>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<{ properties: Props }>;
  delete(id: string, urn: string, props: Props): Promise<void>;
  /** Everything the host printed on stdout and stderr so far. */
  output(): string;
  close(): Promise<void>;
}

const struct = (o: Props) => Struct.fromJavaScript(o);

/**
 * useProviderHost starts a configured provider host before the suite's tests (handed to `set`) and
 * closes it after them.
 */
export function useProviderHost(set: (host: ProviderHost) => void, env: Record<string, string> = {}): void {
  let host: ProviderHost | undefined;
  beforeAll(async () => {
    host = await startProviderHost(env);
    await host.configure({});
    set(host);
  }, 30_000);
  afterAll(async () => {
    await host?.close();
  });
}

/**
 * startProviderHost runs `node @pulumi/pulumi/cmd/dynamic-provider 127.0.0.1:1` from a program
 * folder (the checkout unless `program` names another, such as a fresh install), with that
 * folder's own @pulumi/pulumi.
 */
export async function startProviderHost(
  env: Record<string, string> = {},
  program = ROOT,
): Promise<ProviderHost> {
  // The serialized provider loads `costgate/...` from the program's node_modules, as in a user's program.
  if (program === ROOT) require(resolve(ROOT, "scripts/link-self.js")).linkSelf();
  const hostPath = require.resolve("@pulumi/pulumi/cmd/dynamic-provider", { paths: [program] });
  const { child, port, output } = await startPlugin("provider host", [hostPath, "127.0.0.1:1"], {
    cwd: program,
    env: { ...process.env, PULUMI_NODEJS_PROJECT: "costgate-test", PULUMI_NODEJS_STACK: "test", ...env },
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    async configure(config = {}) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(struct(config));
      const vars = req.getVariablesMap();
      for (const [k, v] of Object.entries(config)) vars.set(k, v);
      await call(client, "configure", req);
    },
    async check(urn, olds, news) {
      const req = new provproto.CheckRequest();
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await call<{
        getInputs(): { toJavaScript(): Props };
        getFailuresList(): { getProperty(): string; getReason(): string }[];
      }>(client, "check", req);
      return {
        inputs: res.getInputs().toJavaScript(),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(id, urn, olds, news) {
      const req = new provproto.DiffRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await call<{
        getChanges(): number;
        getReplacesList(): string[];
        getDeletebeforereplace(): boolean;
      }>(client, "diff", req);
      return {
        changes: res.getChanges(),
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },
    async create(urn, props) {
      const req = new provproto.CreateRequest();
      req.setUrn(urn);
      req.setProperties(struct(props));
      const res = await call<{ getId(): string; getProperties(): { toJavaScript(): Props } }>(
        client,
        "create",
        req,
      );
      return { id: res.getId(), properties: res.getProperties().toJavaScript() };
    },
    async read(id, urn, props) {
      const req = new provproto.ReadRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(struct(props));
      const res = await call<{ getId(): string; getProperties(): { toJavaScript(): Props } | undefined }>(
        client,
        "read",
        req,
      );
      return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {} };
    },
    async update(id, urn, olds, news) {
      const req = new provproto.UpdateRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await call<{ getProperties(): { toJavaScript(): Props } }>(client, "update", req);
      return { properties: res.getProperties().toJavaScript() };
    },
    async delete(id, urn, props) {
      const req = new provproto.DeleteRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(struct(props));
      await call(client, "delete", req);
    },
    output,
    async close() {
      client.close();
      child.kill();
      await new Promise((r) => setTimeout(r, 50));
    },
  };
}

/** The dist build, loaded natively (not through vite), as a Pulumi program loads it. */
export function loadDist<T = Record<string, unknown>>(path = "dist/provider/index.js"): T {
  return require(resolve(ROOT, path));
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** unwrapSecrets strips Pulumi's secret envelopes, as the engine does for a provider that does not accept secrets. */
export function unwrapSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o[SECRET_SIG] === "1b47061264138c4ac30d75fd1eb44270") return unwrapSecrets(o.value);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unwrapSecrets(x)]));
  }
  return v;
}

/** A resource registration seen by the mocks. */
export interface Registration {
  type: string;
  name: string;
  inputs: Props;
}

/**
 * registrations runs `program` under Pulumi mocks and returns what it registered, inputs (with
 * `__provider`) as the engine would receive them. The mock answers with the inputs as outputs.
 */
export async function registrations(
  program: () => void,
  config: Record<string, string> = {},
): Promise<Registration[]> {
  const pulumi = require("@pulumi/pulumi");
  const seen: Registration[] = [];
  const cfg: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) cfg[k] = v;
  process.env.PULUMI_CONFIG = JSON.stringify(cfg);
  pulumi.runtime.setMocks(
    {
      newResource(args: { type: string; name: string; inputs: Props }) {
        seen.push({ type: args.type, name: args.name, inputs: unwrapSecrets(args.inputs) as Props });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call() {
        return {};
      },
    },
    "costgate-test",
    "test",
    false,
  );
  program();
  // Registration is asynchronous (serializing the provider takes a few ticks).
  for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 100));
  return seen;
}
