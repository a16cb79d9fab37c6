/**
 * bash runs a script as a CI step or a user's shell line would: `bash -eo pipefail -c`, with only PATH,
 * HOME and the given environment.
 */
import { execFile } from "node:child_process";

export interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function bash(
  script: string,
  opts: { env?: Record<string, string>; cwd?: string; home?: string; timeoutMs?: number } = {},
): Promise<ShellResult> {
  return new Promise((ok) => {
    execFile(
      "bash",
      ["-eo", "pipefail", "-c", script],
      {
        cwd: opts.cwd,
        env: { PATH: process.env.PATH ?? "", HOME: opts.home ?? "/nonexistent", ...opts.env },
        timeout: opts.timeoutMs ?? 60_000,
      },
      (err, stdout, stderr) => ok({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
