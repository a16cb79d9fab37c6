/**
 * How the benchmark measures: two (or more) variants run alternately, warm-up runs dropped, and
 * the median of each compared. Nothing here is a test: it prints figures, it asserts nothing.
 */
import { spawn } from "node:child_process";

/** A variant: something to time once. */
export type Run = () => Promise<void>;

/** median of a list of numbers (the mean of the two middle ones for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * interleave times each variant `runs` times, alternating A B, B A, A B... so that drift in the
 * machine's load hits both alike, after `warmup` untimed rounds. Returns the times in ms.
 */
export async function interleave(
  variants: Record<string, Run>,
  runs: number,
  warmup = 2,
): Promise<Record<string, number[]>> {
  const names = Object.keys(variants);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < warmup + runs; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const started = performance.now();
      await variants[name]!();
      const ms = performance.now() - started;
      if (round >= warmup) times[name]!.push(ms);
    }
  }
  return times;
}

/** A finished process. */
export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** runProcess runs a command to its end; the caller times it. Rejects when it exits non-zero. */
export function runProcess(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; okCodes?: number[] } = {},
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: opts.env, cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if ((opts.okCodes ?? [0]).includes(code ?? -1)) resolve({ code, stdout, stderr });
      else reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}
