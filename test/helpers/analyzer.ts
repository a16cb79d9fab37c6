/**
 * The compiled policy pack run as `pulumi preview --policy-pack` runs it (node in the pack folder),
 * driven over Pulumi's analyzer gRPC protocol: GetAnalyzerInfo, Configure, AnalyzeStack.
 */
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { call, startPlugin } from "./grpc-process";
import { ROOT } from "./provider-host";

const require = createRequire(import.meta.url);
const grpc = require("@grpc/grpc-js");
const rpc = require("@pulumi/pulumi/proto/analyzer_grpc_pb");
const pb = require("@pulumi/pulumi/proto/analyzer_pb");
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");
const { Empty } = require("google-protobuf/google/protobuf/empty_pb");

const LEVELS: Record<string, number> = { advisory: 0, mandatory: 1, disabled: 2, remediate: 3 };
const LEVEL_NAMES = Object.fromEntries(Object.entries(LEVELS).map(([k, v]) => [v, k]));

/** A diagnostic as the engine receives it. */
export interface Diagnostic {
  policyName: string;
  enforcementLevel: string;
  description: string;
  message: string;
}

/** A planned resource handed to AnalyzeStack. */
export interface PlannedResource {
  type: string;
  name: string;
  props: Record<string, unknown>;
}

export interface PolicyPackProcess {
  info(): Promise<{
    name: string;
    policies: {
      name: string;
      enforcementLevel: string;
      configSchema: unknown;
      /** The config schema's properties, as plain JSON. */
      properties: Record<string, unknown>;
      remediationSteps: string;
      /** 0 unspecified, 1 low, 2 medium, 3 high, 4 critical. */
      severity: number;
    }[];
  }>;
  /** configureStack sends AnalyzerStackConfigure, as the engine does before analyzing: the stack's tags. */
  configureStack(tags: Record<string, string>): Promise<void>;
  configure(config: Record<string, { enforcementLevel?: string; [key: string]: unknown }>): Promise<void>;
  analyzeStack(resources: PlannedResource[]): Promise<Diagnostic[]>;
  output(): string;
  close(): void;
}

/**
 * startPolicyPack runs `node .` in a pack folder (the checkout's policies/budget unless `dir` names
 * another, such as an installed copy) with the given environment.
 */
export async function startPolicyPack(
  env: Record<string, string | undefined>,
  dir = resolve(ROOT, "policies/budget"),
): Promise<PolicyPackProcess> {
  const { child, port, output } = await startPlugin("policy pack", ["."], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", ...env } as NodeJS.ProcessEnv,
  });
  const client = new rpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    async info() {
      const res = await call<{
        getName(): string;
        getPoliciesList(): {
          getName(): string;
          getEnforcementlevel(): number;
          getConfigschema(): { getProperties(): { toJavaScript(): Record<string, unknown> } | undefined };
          getRemediationSteps(): string;
          getSeverity(): number;
        }[];
      }>(client, "getAnalyzerInfo", new Empty());
      return {
        name: res.getName(),
        policies: res.getPoliciesList().map((p) => ({
          name: p.getName(),
          enforcementLevel: LEVEL_NAMES[p.getEnforcementlevel()] ?? "?",
          configSchema: p.getConfigschema(),
          properties: p.getConfigschema()?.getProperties()?.toJavaScript() ?? {},
          remediationSteps: p.getRemediationSteps(),
          severity: p.getSeverity(),
        })),
      };
    },
    async configureStack(tags) {
      const req = new pb.AnalyzerStackConfigureRequest();
      req.setStack("ci");
      req.setProject("app");
      const map = req.getTagsMap();
      for (const [k, v] of Object.entries(tags)) map.set(k, v);
      await call(client, "configureStack", req);
    },
    async configure(config) {
      const req = new pb.ConfigureAnalyzerRequest();
      const map = req.getPolicyconfigMap();
      for (const [name, { enforcementLevel, ...props }] of Object.entries(config)) {
        const pc = new pb.PolicyConfig();
        pc.setEnforcementlevel(LEVELS[enforcementLevel ?? "advisory"] ?? 0);
        pc.setProperties(Struct.fromJavaScript(props));
        map.set(name, pc);
      }
      await call(client, "configure", req);
    },
    async analyzeStack(resources) {
      const req = new pb.AnalyzeStackRequest();
      req.setResourcesList(
        resources.map((r) => {
          const ar = new pb.AnalyzerResource();
          ar.setType(r.type);
          ar.setName(r.name);
          ar.setUrn(`urn:pulumi:ci::app::${r.type}::${r.name}`);
          ar.setProperties(Struct.fromJavaScript(r.props));
          ar.setOptions(new pb.AnalyzerResourceOptions());
          return ar;
        }),
      );
      const res = await call<{
        getDiagnosticsList(): {
          getPolicyname(): string;
          getEnforcementlevel(): number;
          getDescription(): string;
          getMessage(): string;
        }[];
      }>(client, "analyzeStack", req);
      return res.getDiagnosticsList().map((d) => ({
        policyName: d.getPolicyname(),
        enforcementLevel: LEVEL_NAMES[d.getEnforcementlevel()] ?? "?",
        description: d.getDescription(),
        // The engine gets "<description>\n<message>".
        message: d.getMessage().startsWith(`${d.getDescription()}\n`)
          ? d.getMessage().slice(d.getDescription().length + 1)
          : d.getMessage(),
      }));
    },
    output,
    close() {
      client.close();
      child.kill();
    },
  };
}

/** UNKNOWN is the engine's marker of a value not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
