/**
 * Starts a Pulumi plugin process (the dynamic-provider host, a policy pack) that prints its gRPC
 * port on the first stdout line, and keeps everything else it prints.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

export interface PluginProcess {
  child: ChildProcess;
  port: number;
  /** What the process printed so far, after the port line. */
  output(): string;
}

export async function startPlugin(what: string, args: string[], opts: SpawnOptions): Promise<PluginProcess> {
  const child = spawn(process.execPath, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const port = await new Promise<number>((ok, fail) => {
    let first = "";
    const timer = setTimeout(() => fail(new Error(`${what} did not start: ${out}`)), 20_000);
    child.stdout?.on("data", (d) => {
      if (first.includes("\n")) {
        out += d;
        return;
      }
      first += d;
      const nl = first.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        out += first.slice(nl + 1);
        ok(Number(first.slice(0, nl).trim()));
      }
    });
    child.on("exit", (code) => fail(new Error(`${what} exited with ${code}: ${out}`)));
  });
  return { child, port, output: () => out };
}

/** call invokes a unary method of a @grpc/grpc-js client and resolves with its answer. */
export function call<T>(client: Record<string, unknown>, method: string, req: unknown): Promise<T> {
  return new Promise((ok, fail) => {
    (client[method] as (r: unknown, cb: (e: Error | null, res: T) => void) => void).call(
      client,
      req,
      (e, res) => (e ? fail(e) : ok(res)),
    );
  });
}
