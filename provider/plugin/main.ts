/**
 * `pulumi-resource-costgate`: started by the Pulumi engine (the engine's address as the first argument,
 * not dialled), it serves the provider protocol on 127.0.0.1 and prints the port alone on stdout's
 * first line; nothing else goes to stdout.
 * @internal
 */
import { loadProto } from "./proto";
import { pluginVersion, serve } from "./server";

/** main starts the plugin. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  if (argv[0] === "--version" || argv[0] === "-V") {
    process.stdout.write(`${pluginVersion()}\n`);
    return;
  }
  const { port, server } = await serve(loadProto());
  process.stdout.write(`${port}\n`);
  const stop = () => {
    server.forceShutdown();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
