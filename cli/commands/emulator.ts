/**
 * `costgate emulator`: the local cloud for users' own offline tests and CI.
 */
import { UsageError as EmulatorUsageError, main } from "../../emulator/main";
import { UsageError } from "../errors";

export async function emulatorCommand(opts: Record<string, string | boolean | undefined>): Promise<number> {
  const argv: string[] = [];
  for (const k of ["host", "port", "seed", "tokenTtl", "knobs"] as const) {
    const v = opts[k];
    if (typeof v === "string") argv.push(`--${k === "tokenTtl" ? "token-ttl" : k}`, v);
  }
  if (opts["json"]) argv.push("--json");
  try {
    await main(argv);
  } catch (e) {
    // a bad flag value is bad usage (exit 2), as everywhere in costgate
    if (e instanceof EmulatorUsageError) throw new UsageError(e.message);
    throw e;
  }
  // The server keeps the process alive until SIGINT/SIGTERM.
  return new Promise<number>(() => undefined);
}
