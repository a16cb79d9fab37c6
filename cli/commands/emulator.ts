/**
 * `costgate emulator`: the local cloud for users' own offline tests and CI.
 */
import { UsageError as EmulatorUsageError, main } from "../../emulator/main";
import { UsageError } from "../errors";
import { EMULATOR_FLAGS, type EmulatorOptions } from "../options/emulator";

/** emulatorCommand runs the emulator until SIGINT or SIGTERM; a bad option or a taken port is bad usage. */
export async function emulatorCommand(opts: EmulatorOptions): Promise<number> {
  const argv: string[] = [];
  for (const [key, flag] of Object.entries(EMULATOR_FLAGS)) {
    const v = opts[key as keyof typeof EMULATOR_FLAGS];
    if (v !== undefined) argv.push(flag, v);
  }
  if (opts.json) argv.push("--json");
  const host = opts.host;
  if (host === "0.0.0.0" || host === "::") {
    process.stderr.write(
      `costgate: warning: --host ${host} listens on every interface: anyone who can reach this machine can use the emulator's credentials and knobs (it has no authentication); use --host 127.0.0.1 unless that is what you want\n`,
    );
  }
  try {
    await main(argv);
  } catch (e) {
    // a bad flag value is bad usage (exit 2), as everywhere in costgate
    if (e instanceof EmulatorUsageError) throw new UsageError(e.message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      throw new UsageError(
        `--port ${opts.port ?? "5000"}: the port is taken on ${host} (EADDRINUSE); choose another, or --port 0 for any free port`,
      );
    }
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
      throw new UsageError(`--host ${host}: not an address of this machine (${code}); e.g. --host 127.0.0.1`);
    }
    if (code === "EACCES") {
      throw new UsageError(
        `--port ${opts.port}: not allowed (EACCES; ports below 1024 need root); e.g. --port 5000`,
      );
    }
    throw e;
  }
  // The server keeps the process alive until SIGINT/SIGTERM.
  return new Promise<number>(() => undefined);
}
