/**
 * The ResourceProvider gRPC service of `pulumi-resource-costgate`, served with @grpc/grpc-js on Pulumi's
 * own definitions (proto.ts). Every method the engine calls is answered here: `pulumi.provider.main`
 * (3.248) answers Handshake, CheckConfig and DiffConfig as unimplemented, drops Configure's
 * configuration, cannot take a preview or return a detailed diff (PULUMI-NOTES.md), so it is not used.
 * Errors are gRPC statuses whose message names the field at fault; no secret of the request or of the
 * configuration is in any of them.
 * @internal
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import {
  isAuthError,
  isConfigError,
  isCostgateError,
  isHttpError,
  isNetworkError,
  isTimeoutError,
} from "../errors";
import { checkConfig, fromVariables, type ProviderConfig } from "./config";
import { checkArgs, invoke } from "./invoke";
import type { Proto } from "./proto";
import * as resources from "./resources";
import type { Failure } from "./schema";
import { packageRoot, schemaText } from "./schema";
import { collectStrings, conceal, type Props, plain, reveal, revealProps } from "./values";

type Struct = structTypes.Struct;
type Callback = (err: grpcTypes.ServiceError | null, res?: unknown) => void;
type Handler = (call: { request: unknown }, callback: Callback) => void;

/** The names whose values are secrets wherever they appear, envelope or not. */
const SECRET_NAMES = new Set([...resources.SECRET_KEYS, "billingToken"]);

/** The package's version, for GetPluginInfo. */
export function pluginVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** A failed request: the gRPC status code and a message naming what failed. */
class Status extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function failuresText(failures: Failure[]): string {
  return failures.map((f) => f.reason).join("; ");
}

/** secretsIn adds to `into` the values of secret-named properties, and whatever envelopes held. */
function secretsIn(props: Props | undefined, into: Set<string>): void {
  if (!props) return;
  reveal(props, into);
  for (const [k, v] of Object.entries(props)) if (SECRET_NAMES.has(k)) collectStrings(reveal(v), into);
}

/** scrub replaces every known secret in a message. */
function scrub(message: string, secrets: Set<string>): string {
  let out = message;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) {
    if (s.length >= 4) out = out.split(s).join("[secret]");
  }
  return out;
}

/** ProviderServer: the service's handlers and the configuration they share. */
export function createHandlers(proto: Proto): Record<string, Handler> {
  const { grpc, provider: pb, plugin, empty, struct } = proto;
  const S = grpc.status;
  let config: ProviderConfig = {};
  const configSecrets = new Set<string>();

  const toStruct = (v: Props): Struct => struct.Struct.fromJavaScript(plain(v) as Record<string, never>);
  const fromStruct = (s: Struct | undefined): Props => (s ? (s.toJavaScript() as Props) : {});

  function statusOf(e: unknown): Status {
    if (e instanceof Status) return e;
    if (isConfigError(e)) return new Status(S.INVALID_ARGUMENT, e.message);
    if (isAuthError(e)) return new Status(S.UNAUTHENTICATED, e.message);
    if (isTimeoutError(e)) return new Status(S.DEADLINE_EXCEEDED, e.message);
    if (isNetworkError(e)) return new Status(S.UNAVAILABLE, e.message);
    if (isHttpError(e)) return new Status(e.status === 404 ? S.NOT_FOUND : S.UNAVAILABLE, e.message);
    if (isCostgateError(e)) return new Status(S.UNKNOWN, e.message);
    const name = e instanceof Error ? e.name : typeof e;
    const message = e instanceof Error ? e.message : String(e);
    return new Status(
      S.INTERNAL,
      `internal error in pulumi-resource-costgate (${name}: ${message}); please report it`,
    );
  }

  /** unary runs an async handler; its secrets (request and configuration) are kept out of the error. */
  function unary<Req>(run: (req: Req, secrets: Set<string>) => Promise<unknown> | unknown): Handler {
    return (call, callback) => {
      const secrets = new Set(configSecrets);
      Promise.resolve()
        .then(() => run(call.request as Req, secrets))
        .then(
          (res) => callback(null, res),
          (e: unknown) => {
            const st = statusOf(e);
            const err = Object.assign(new Error(scrub(st.message, secrets)), {
              code: st.code,
              details: scrub(st.message, secrets),
              metadata: new grpc.Metadata(),
            });
            callback(err as grpcTypes.ServiceError);
          },
        );
    };
  }

  function checkFailures(failures: Failure[]) {
    return failures.map((f) => {
      const cf = new pb.CheckFailure();
      cf.setProperty(f.property);
      cf.setReason(f.reason);
      return cf;
    });
  }

  function typeOf(req: { getType?(): string; getUrn(): string }): resources.ResourceType {
    return resources.resourceType(req.getType?.() ?? "", req.getUrn());
  }

  /** revealed: a request's property map without envelopes; its secrets are noted. */
  function revealed(s: Struct | undefined, secrets: Set<string>): Props {
    const props = fromStruct(s);
    secretsIn(props, secrets);
    return revealProps(props).values;
  }

  /**
   * checked: the resource's inputs as Check makes them. The engine always sends those; a client that
   * skips Check (raw program inputs, no `authType`) gets them checked here, so a diff or a create never
   * reads unchecked inputs.
   */
  function checked(type: resources.ResourceType, props: Props): Props {
    if (props["authType"] === resources.RESOURCE_TYPES[type]) return props;
    const r = resources.check(type, props, config);
    if (r.failures.length > 0) throw new Status(S.INVALID_ARGUMENT, failuresText(r.failures));
    return revealProps(r.inputs).values;
  }

  return {
    handshake: unary(() => {
      const res = new pb.ProviderHandshakeResponse();
      res.setAcceptSecrets(true);
      res.setAcceptResources(false);
      res.setAcceptOutputs(false);
      res.setSupportsAutonamingConfiguration(false);
      return res;
    }),
    getPluginInfo: unary(() => {
      const info = new plugin.PluginInfo();
      info.setVersion(pluginVersion());
      return info;
    }),
    getSchema: unary(() => {
      const res = new pb.GetSchemaResponse();
      res.setSchema(schemaText());
      return res;
    }),
    checkConfig: unary((req: InstanceType<typeof pb.CheckRequest>, secrets) => {
      const news = fromStruct(req.getNews());
      secretsIn(news, secrets);
      const { failures } = checkConfig(news);
      const res = new pb.CheckResponse();
      // the engine sends plain values here: the billing token goes back a secret
      res.setInputs(toStruct(conceal(news, ["billingToken"])));
      res.setFailuresList(checkFailures(failures));
      return res;
    }),
    diffConfig: unary((req: InstanceType<typeof pb.DiffRequest>, secrets) => {
      const olds = revealed(req.getOlds(), secrets);
      const news = revealed(req.getNews(), secrets);
      const res = new pb.DiffResponse();
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
        (k) => k !== "version" && JSON.stringify(olds[k] ?? null) !== JSON.stringify(news[k] ?? null),
      );
      res.setChanges(
        keys.length > 0 ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
      );
      res.setDiffsList(keys);
      for (const k of keys) {
        const d = new pb.PropertyDiff();
        d.setKind(olds[k] === undefined ? 0 : news[k] === undefined ? 2 : 4);
        d.setInputdiff(true);
        res.getDetaileddiffMap().set(k, d);
      }
      res.setHasdetaileddiff(true);
      return res;
    }),
    configure: unary((req: InstanceType<typeof pb.ConfigureRequest>, secrets) => {
      const args = fromStruct(req.getArgs());
      const raw = Object.keys(args).length > 0 ? args : fromVariables(req.getVariablesMap().toArray());
      secretsIn(raw, secrets);
      const checked = checkConfig(raw);
      if (checked.failures.length > 0) throw new Status(S.INVALID_ARGUMENT, failuresText(checked.failures));
      config = checked.config;
      configSecrets.clear();
      if (config.billingToken) configSecrets.add(config.billingToken);
      const res = new pb.ConfigureResponse();
      res.setAcceptsecrets(true);
      res.setSupportspreview(true);
      res.setAcceptresources(false);
      res.setAcceptoutputs(false);
      return res;
    }),
    check: unary((req: InstanceType<typeof pb.CheckRequest>, secrets) => {
      const type = typeOf(req);
      const news = revealed(req.getNews(), secrets);
      const r = resources.check(type, news, config);
      const res = new pb.CheckResponse();
      res.setInputs(toStruct(r.failures.length > 0 ? fromStruct(req.getNews()) : r.inputs));
      res.setFailuresList(checkFailures(r.failures));
      return res;
    }),
    diff: unary((req: InstanceType<typeof pb.DiffRequest>, secrets) => {
      const type = typeOf(req);
      const olds = revealed(req.getOlds(), secrets);
      const news = checked(type, revealed(req.getNews(), secrets));
      const d = resources.diff(olds, news);
      const res = new pb.DiffResponse();
      res.setChanges(
        d.changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
      );
      res.setReplacesList(d.replaces);
      res.setDiffsList(Object.keys(d.detailed));
      for (const [k, v] of Object.entries(d.detailed)) {
        const p = new pb.PropertyDiff();
        p.setKind(v.kind);
        p.setInputdiff(v.inputDiff);
        res.getDetaileddiffMap().set(k, p);
      }
      res.setHasdetaileddiff(true);
      res.setDeletebeforereplace(false);
      return res;
    }),
    create: unary(async (req: InstanceType<typeof pb.CreateRequest>, secrets) => {
      const type = typeOf(req);
      const inputs = checked(type, revealed(req.getProperties(), secrets));
      const res = new pb.CreateResponse();
      if (req.getPreview()) {
        res.setId("");
        res.setProperties(toStruct(resources.previewOutputs(type, inputs)));
        return res;
      }
      const r = await resources.create(inputs);
      res.setId(r.id);
      res.setProperties(toStruct(r.outs));
      return res;
    }),
    read: unary(async (req: InstanceType<typeof pb.ReadRequest>, secrets) => {
      typeOf(req);
      const props = revealed(req.getProperties(), secrets);
      const r = await resources.read(req.getId(), props);
      const res = new pb.ReadResponse();
      res.setId(r.id);
      if (r.outs) {
        res.setProperties(toStruct(r.outs));
        const inputs = req.getInputs();
        if (inputs) res.setInputs(inputs);
      }
      return res;
    }),
    update: unary(async (req: InstanceType<typeof pb.UpdateRequest>, secrets) => {
      const type = typeOf(req);
      const olds = revealed(req.getOlds(), secrets);
      const news = checked(type, revealed(req.getNews(), secrets));
      const res = new pb.UpdateResponse();
      res.setProperties(toStruct(await resources.update(olds, news)));
      return res;
    }),
    delete: unary(async (req: InstanceType<typeof pb.DeleteRequest>, secrets) => {
      typeOf(req);
      await resources.remove(revealed(req.getProperties(), secrets));
      return new empty.Empty();
    }),
    invoke: unary(async (req: InstanceType<typeof pb.InvokeRequest>, secrets) => {
      const tok = req.getTok();
      const args = revealed(req.getArgs(), secrets);
      const res = new pb.InvokeResponse();
      const failures = checkArgs(tok, args);
      if (failures.length > 0) {
        res.setFailuresList(checkFailures(failures));
        return res;
      }
      res.setReturn(toStruct((await invoke(tok, args, config)) as Props));
      return res;
    }),
    cancel: unary(() => new empty.Empty()),
    attach: unary(() => new empty.Empty()),
    getMapping: unary(() => {
      // costgate converts no other tool's programs: an empty answer means "no mapping"
      const res = new pb.GetMappingResponse();
      res.setProvider("");
      res.setData(new Uint8Array());
      return res;
    }),
    getMappings: unary(() => new pb.GetMappingsResponse()),
  };
}

/**
 * serve starts the service on 127.0.0.1 (port 0: the system picks one) and resolves with the port.
 * @example const { port } = await serve(loadProto());
 */
export async function serve(proto: Proto): Promise<{ port: number; server: grpcTypes.Server }> {
  const { grpc, services } = proto;
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
    "grpc.max_send_message_length": 64 * 1024 * 1024,
  });
  server.addService(
    services.ResourceProviderService as unknown as grpcTypes.ServiceDefinition,
    createHandlers(proto) as unknown as grpcTypes.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((ok, fail) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? fail(e) : ok(p))),
  );
  return { port, server };
}
