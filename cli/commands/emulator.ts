/**
 * `costgate emulator`: the local cloud for users' own offline tests and CI.
 */
import { main } from "../../emulator/main";

export async function emulatorCommand(opts: Record<string, string | boolean | undefined>): Promise<number> {
  const argv: string[] = [];
  for (const k of ["host", "port", "seed", "tokenTtl"] as const) {
    const v = opts[k];
    if (typeof v === "string") argv.push(`--${k === "tokenTtl" ? "token-ttl" : k}`, v);
  }
  if (opts["json"]) argv.push("--json");
  await main(argv);
  // The server keeps the process alive until SIGINT/SIGTERM.
  return new Promise<number>(() => undefined);
}
