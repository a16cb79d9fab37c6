/**
 * `pulumi-resource-costgate` started as the Pulumi engine starts a provider plugin (the executable itself,
 * the engine's address as the first argument, the port read from stdout's first line), and a client that
 * speaks the provider protocol to it with Pulumi's own gRPC definitions, taking and giving plain values.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { call } from "./grpc-process";

const require = createRequire(import.meta.url);
const grpc = require("@grpc/grpc-js");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const pb = require("@pulumi/pulumi/proto/provider_pb");
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");
const { Empty } = require("google-protobuf/google/protobuf/empty_pb");

export type Props = Record<string, unknown>;
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** secret wraps a value in Pulumi's secret envelope. */
export function secret(value: unknown): Props {
  return { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value };
}

/** isSecret tells whether a value is a secret envelope. */
export function isSecret(v: unknown): v is { value: unknown } {
  return (
    typeof v === "object" && v !== null && (v as Props)[SECRET_SIG] === "1b47061264138c4ac30d75fd1eb44270"
  );
}

/** withoutSecrets is a property map with each secret envelope's value blanked: what must hold no secret. */
export function withoutSecrets(v: unknown): unknown {
  if (isSecret(v)) return "[secret]";
  if (Array.isArray(v)) return v.map(withoutSecrets);
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutSecrets(x)]));
  return v;
}

export interface Failure {
  property: string;
  reason: string;
}

export interface DiffAnswer {
  changes: number;
  replaces: string[];
  diffs: string[];
  detailed: Record<string, { kind: number; inputDiff: boolean }>;
  hasDetailedDiff: boolean;
  deleteBeforeReplace: boolean;
}

const struct = (o: Props) => Struct.fromJavaScript(o);
const js = (s: { toJavaScript(): Props } | undefined): Props => s?.toJavaScript() ?? {};

/** PluginClient drives the provider protocol; every request and answer is kept in `transcript`. */
export class PluginClient {
  /** Every answer with its secret envelopes blanked, and every error, as text: for canary scans. */
  readonly transcript: string[] = [];
  constructor(
    private readonly client: Record<string, unknown> & { close(): void },
    readonly child: ChildProcess,
    readonly stdout: () => string,
    readonly stderr: () => string,
  ) {}

  private async rpc<T>(method: string, req: unknown): Promise<T> {
    try {
      return await call<T>(this.client, method, req);
    } catch (e) {
      this.transcript.push(String((e as Error).message), JSON.stringify(e));
      throw e;
    }
  }

  async handshake() {
    const req = new pb.ProviderHandshakeRequest();
    req.setEngineAddress("127.0.0.1:1");
    const res = await this.rpc<{ getAcceptSecrets(): boolean; getAcceptResources(): boolean }>(
      "handshake",
      req,
    );
    return { acceptSecrets: res.getAcceptSecrets(), acceptResources: res.getAcceptResources() };
  }
  async pluginInfo(): Promise<string> {
    return (await this.rpc<{ getVersion(): string }>("getPluginInfo", new Empty())).getVersion();
  }
  async schema(): Promise<Props> {
    const res = await this.rpc<{ getSchema(): string }>("getSchema", new pb.GetSchemaRequest());
    return JSON.parse(res.getSchema());
  }
  async checkConfig(news: Props): Promise<{ inputs: Props; failures: Failure[] }> {
    const req = new pb.CheckRequest();
    req.setUrn("urn:pulumi:test::costgate-test::pulumi:providers:costgate::default");
    req.setOlds(struct({}));
    req.setNews(struct(news));
    return this.checkAnswer(await this.rpc("checkConfig", req));
  }
  async diffConfig(olds: Props, news: Props) {
    const req = new pb.DiffRequest();
    req.setUrn("urn:pulumi:test::costgate-test::pulumi:providers:costgate::default");
    req.setId("provider-id");
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    return this.diffAnswer(await this.rpc("diffConfig", req));
  }
  /** configure sends `args` (secrets in envelopes) and the `variables` the engine derives from them. */
  async configure(args: Props, variables: Record<string, string> = {}) {
    const req = new pb.ConfigureRequest();
    req.setArgs(struct(args));
    req.setAcceptsecrets(true);
    for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
    const res = await this.rpc<{ getAcceptsecrets(): boolean; getSupportspreview(): boolean }>(
      "configure",
      req,
    );
    return { acceptSecrets: res.getAcceptsecrets(), supportsPreview: res.getSupportspreview() };
  }
  async check(type: string, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
    const req = new pb.CheckRequest();
    req.setUrn(urn(type));
    req.setType(type);
    req.setName("t");
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    return this.checkAnswer(await this.rpc("check", req));
  }
  async diff(type: string, id: string, olds: Props, news: Props): Promise<DiffAnswer> {
    const req = new pb.DiffRequest();
    req.setUrn(urn(type));
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    return this.diffAnswer(await this.rpc("diff", req));
  }
  async create(type: string, props: Props, preview = false): Promise<{ id: string; properties: Props }> {
    const req = new pb.CreateRequest();
    req.setUrn(urn(type));
    req.setProperties(struct(props));
    req.setPreview(preview);
    const res = await this.rpc<{ getId(): string; getProperties(): { toJavaScript(): Props } }>(
      "create",
      req,
    );
    return this.seen({ id: res.getId(), properties: js(res.getProperties()) });
  }
  async read(type: string, id: string, props: Props, inputs: Props = {}) {
    const req = new pb.ReadRequest();
    req.setUrn(urn(type));
    req.setId(id);
    req.setProperties(struct(props));
    req.setInputs(struct(inputs));
    const res = await this.rpc<{
      getId(): string;
      getProperties(): { toJavaScript(): Props } | undefined;
      getInputs(): { toJavaScript(): Props } | undefined;
    }>("read", req);
    return this.seen({ id: res.getId(), properties: js(res.getProperties()), inputs: js(res.getInputs()) });
  }
  async update(type: string, id: string, olds: Props, news: Props): Promise<Props> {
    const req = new pb.UpdateRequest();
    req.setUrn(urn(type));
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    return this.seen(
      js((await this.rpc<{ getProperties(): { toJavaScript(): Props } }>("update", req)).getProperties()),
    );
  }
  async delete(type: string, id: string, props: Props): Promise<void> {
    const req = new pb.DeleteRequest();
    req.setUrn(urn(type));
    req.setId(id);
    req.setProperties(struct(props));
    await this.rpc("delete", req);
  }
  async invoke(tok: string, args: Props): Promise<{ result: Props; failures: Failure[] }> {
    const req = new pb.InvokeRequest();
    req.setTok(tok);
    req.setArgs(struct(args));
    const res = await this.rpc<{
      getReturn(): { toJavaScript(): Props } | undefined;
      getFailuresList(): { getProperty(): string; getReason(): string }[];
    }>("invoke", req);
    return this.seen({ result: js(res.getReturn()), failures: failuresOf(res) });
  }
  async cancel(): Promise<void> {
    await this.rpc("cancel", new Empty());
  }
  async attach(): Promise<void> {
    const { PluginAttach } = require("@pulumi/pulumi/proto/plugin_pb");
    const req = new PluginAttach();
    req.setAddress("127.0.0.1:1");
    await this.rpc("attach", req);
  }
  async getMappings(): Promise<string[]> {
    const req = new pb.GetMappingsRequest();
    req.setKey("terraform");
    return (await this.rpc<{ getProvidersList(): string[] }>("getMappings", req)).getProvidersList();
  }
  async getMapping(): Promise<{ provider: string; data: number }> {
    const req = new pb.GetMappingRequest();
    req.setKey("terraform");
    const res = await this.rpc<{ getProvider(): string; getData_asU8(): Uint8Array }>("getMapping", req);
    return { provider: res.getProvider(), data: res.getData_asU8().length };
  }
  /** raw sends a request built by the caller (for malformed cases). */
  rawCall<T>(method: string, req: unknown): Promise<T> {
    return this.rpc<T>(method, req);
  }

  /** seen keeps an answer, secrets blanked, in the transcript. */
  private seen<T>(answer: T): T {
    this.transcript.push(JSON.stringify(withoutSecrets(answer)));
    return answer;
  }
  private checkAnswer(res: unknown) {
    const r = res as { getInputs(): { toJavaScript(): Props } | undefined };
    return this.seen({ inputs: js(r.getInputs()), failures: failuresOf(res) });
  }
  private diffAnswer(res: unknown): DiffAnswer {
    const r = res as {
      getChanges(): number;
      getReplacesList(): string[];
      getDiffsList(): string[];
      getDetaileddiffMap(): {
        forEach(f: (d: { getKind(): number; getInputdiff(): boolean }, k: string) => void): void;
      };
      getHasdetaileddiff(): boolean;
      getDeletebeforereplace(): boolean;
    };
    const detailed: DiffAnswer["detailed"] = {};
    r.getDetaileddiffMap().forEach((d, k) => {
      detailed[k] = { kind: d.getKind(), inputDiff: d.getInputdiff() };
    });
    return this.seen({
      changes: r.getChanges(),
      replaces: r.getReplacesList(),
      diffs: r.getDiffsList(),
      detailed,
      hasDetailedDiff: r.getHasdetaileddiff(),
      deleteBeforeReplace: r.getDeletebeforereplace(),
    });
  }

  async close(): Promise<void> {
    this.client.close();
    if (this.child.exitCode === null) {
      const exited = new Promise((r) => this.child.once("exit", r));
      this.child.kill("SIGTERM");
      await exited;
    }
  }
}

function failuresOf(res: unknown): Failure[] {
  return (res as { getFailuresList(): { getProperty(): string; getReason(): string }[] })
    .getFailuresList()
    .map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

function urn(type: string): string {
  return `urn:pulumi:test::costgate-test::${type}::t`;
}

/** The resource and diff codes of the protocol. */
export const DIFF_NONE = 1;
export const DIFF_SOME = 2;
export const KIND = { ADD: 0, ADD_REPLACE: 1, DELETE: 2, DELETE_REPLACE: 3, UPDATE: 4, UPDATE_REPLACE: 5 };

/**
 * startPluginProcess runs the plugin executable at `bin` with the engine's address as its argument, in
 * `cwd` with exactly `env`, and connects a client to the port it prints.
 */
export async function startPluginProcess(
  bin: string,
  cwd: string,
  env: Record<string, string>,
): Promise<PluginClient> {
  const child = spawn(bin, ["127.0.0.1:1"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const port = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the plugin did not print its port: ${stderr}`)), 20_000);
    child.stdout?.on("data", (d) => {
      stdout += d;
      const nl = stdout.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        ok(Number(stdout.slice(0, nl)));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the plugin exited with ${code}: ${stderr}`));
    });
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new PluginClient(
    client,
    child,
    () => stdout,
    () => stderr,
  );
}
