/**
 * The CLI test helper: runs the built `costgate` command as a user's shell does.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";

const BIN = resolve(__dirname, "../../bin/costgate");

/**
 * runCli runs the built command as a user's shell does (bin/costgate itself), with only the given
 * env (plus PATH).
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(
      BIN,
      args,
      { env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        ok({ code, stdout, stderr });
      },
    );
  });
}
