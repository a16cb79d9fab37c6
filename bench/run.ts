/**
 * `npm run bench`: packs the built package, installs the tarball into a fresh program, runs every
 * measurement of bench/measurements.ts side by side on that install, prints a table and writes
 * docs/benchmarks.json (machine, date, rows).
 *
 *   npm run bench                       all of them, 15 runs per variant
 *   npm run bench -- --runs 5           fewer runs
 *   npm run bench -- --only startup     some of them (comma-separated names)
 *   npm run bench -- --no-keystone      the emulator only
 *   COSTGATE_BENCH_KEYSTONE_DIR=DIR     use a Keystone already started with keystone.sh start DIR
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { startForwardProxy } from "../test/proxy/forward-proxy";
import { installPackage } from "./installed";
import { type BenchContext, MEASUREMENTS, type Row } from "./measurements";
import { startEmulatorTarget, startKeystone } from "./targets";

const ROOT = resolve(__dirname, "..", "..");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fmt(v: number | undefined, unit: Row["unit"]): string {
  if (v === undefined) return "—";
  return unit === "bytes" ? `${v.toLocaleString("en")} B` : `${v.toFixed(1)} ms`;
}

/** table renders rows as a Markdown table (it reads as well in a terminal). */
export function table(rows: Row[]): string {
  const head = ["measurement", "subject", "median", "baseline", "median", "ratio", "target", "runs"];
  const lines = rows.map((r) => [
    r.name,
    r.subject,
    fmt(r.subjectValue, r.unit),
    r.baseline,
    fmt(r.baselineValue, r.unit),
    r.pending ? "pending" : `${r.ratio?.toFixed(2)}×`,
    r.target === undefined
      ? ""
      : `≤ ${r.target}× ${r.ratio !== undefined && r.ratio <= r.target ? "✓" : "✗"}`,
    r.runs === undefined ? "" : String(r.runs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...lines.map(line)].join("\n");
}

async function main(): Promise<void> {
  const runs = Number(arg("runs") ?? 15);
  const only = arg("only")?.split(",");
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  const installed = installPackage(ROOT, log);
  const { emu, target } = await startEmulatorTarget();
  const proxy = await startForwardProxy();
  const keystone = process.argv.includes("--no-keystone") ? undefined : await startKeystone(ROOT, log);
  const ctx: BenchContext = {
    root: ROOT,
    runs,
    emu,
    targets: keystone ? [target, keystone.target] : [target],
    installed,
    proxy,
    log,
  };
  const rows: Row[] = [];
  try {
    for (const m of MEASUREMENTS) {
      if (only && !only.includes(m.name)) continue;
      log(`${m.name}...`);
      rows.push(...(await m.run(ctx)));
    }
  } finally {
    await keystone?.stop();
    await emu.close();
    await proxy.close();
    installed.remove();
  }
  const cpu = cpus();
  const machine = {
    cores: cpu.length,
    cpu: cpu[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage1m: Number(loadavg()[0]?.toFixed(2)),
  };
  const out = { date: new Date().toISOString(), machine, runsPerVariant: runs, rows };
  process.stdout.write(`\n${table(rows)}\n\n`);
  process.stdout.write(
    `${machine.cores} cores (${machine.cpu}), node ${machine.node}, load ${machine.loadAverage1m}, ${out.date}\n`,
  );
  if (!only) {
    const file = join(ROOT, "docs", "benchmarks.json");
    writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    process.stdout.write(`written: ${file}\n`);
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
}
