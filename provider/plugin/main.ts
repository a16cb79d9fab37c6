/**
 * `pulumi-resource-costgate`: started by the Pulumi engine (the engine's address as the first argument,
 * not dialled), it serves the provider protocol on 127.0.0.1 and prints the port alone on stdout's
 * first line; nothing else goes to stdout.
 * @internal
 */
import { loadProto } from "./proto";

/** main starts the plugin. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  // Pulumi's definitions first: without @pulumi/pulumi the plugin says what to install, and loads nothing else
  const proto = argv[0] === "--version" || argv[0] === "-V" ? undefined : loadProto();
  const { pluginVersion, serve } = require("./server") as typeof import("./server");
  if (!proto) {
    process.stdout.write(`${pluginVersion()}\n`);
    return;
  }
  const { port, server } = await serve(proto);
  process.stdout.write(`${port}\n`);
  const stop = () => {
    server.forceShutdown();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
