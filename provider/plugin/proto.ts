/**
 * Pulumi's own gRPC definitions of the provider protocol (`@pulumi/pulumi/proto`), with the @grpc/grpc-js
 * and google-protobuf that @pulumi/pulumi itself resolves: one copy of each, the ones its generated code
 * was built against. Loaded when the plugin starts, never by the library or the CLI.
 * @internal
 */
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as pluginTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as providerGrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as providerTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as emptyTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";

export interface Proto {
  grpc: typeof grpcTypes;
  provider: typeof providerTypes;
  services: typeof providerGrpcTypes;
  plugin: typeof pluginTypes;
  empty: typeof emptyTypes;
  struct: typeof structTypes;
}

/** loadProto loads the definitions, or says what to install when @pulumi/pulumi is missing. */
export function loadProto(): Proto {
  let base: string;
  try {
    base = require.resolve("@pulumi/pulumi/proto/provider_pb.js");
  } catch (cause) {
    throw Object.assign(
      new Error(
        "pulumi-resource-costgate needs @pulumi/pulumi (its gRPC definitions of the provider protocol) " +
          "installed next to costgate: `npm install -g costgate @pulumi/pulumi`, or " +
          "`npm install costgate @pulumi/pulumi` in the folder the plugin runs from.",
        { cause },
      ),
      { code: "MODULE_NOT_FOUND" },
    );
  }
  const req = createRequire(base);
  return {
    grpc: req("@grpc/grpc-js"),
    provider: req("./provider_pb"),
    services: req("./provider_grpc_pb"),
    plugin: req("./plugin_pb"),
    empty: req("google-protobuf/google/protobuf/empty_pb"),
    struct: req("google-protobuf/google/protobuf/struct_pb"),
  };
}
