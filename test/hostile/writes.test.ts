/**
 * Nothing lost on write: every file costgate writes (the --html report, policy-config --output, the
 * --summary append) is whole or as it was, under a file-size limit (`ulimit -f`: EFBIG), a full disk (a
 * 64 KiB tmpfs: ENOSPC) and a read-only file system; its mode is kept; a write failure is exit 4 with
 * what to do, and a failing gate's 1 is never hidden by it. Real processes against the emulator.
 */
import { execFile, execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { addDays, isoDay } from "../../provider/billing/periods";

const BIN = resolve(__dirname, "../../bin/costgate");
const PROJECT = 5150;
const PASS = ["--monthly-budget", "100000000"];
const FAIL = ["--monthly-budget", "1"];
const OLD = "<!doctype html><p>the good report of yesterday</p>\n";

let emu: Emulator;
let env: Record<string, string>;
let dir: string;

/** run runs bin/costgate under `ulimit -f <kib>` when given (node ignores SIGXFSZ: the write gets EFBIG). */
function run(
  args: string[],
  o: { fileSizeKiB?: number; env?: Record<string, string>; pipe?: boolean; stdout?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const limit = o.fileSizeKiB === undefined ? "" : `ulimit -f ${o.fileSizeKiB}; `;
  // with `pipe`, stdout is a shell pipe (execFile's own stdout is a socket, which /dev/stdout cannot open)
  const to = o.stdout ? ` > ${o.stdout}` : "";
  const line = o.pipe ? `set -o pipefail; ${limit}"$0" "$@" | cat` : `${limit}exec "$0" "$@"${to}`;
  return new Promise((ok) => {
    execFile(
      "bash",
      ["-c", line, BIN, ...args],
      { env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", ...env, ...o.env }, timeout: 30_000 },
      (err, stdout, stderr) =>
        ok({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

const report = (html: string, ...more: string[]) => [
  "report",
  "--project-id",
  String(PROJECT),
  "--html",
  html,
  ...more,
];
const leftovers = (d: string) => readdirSync(d).filter((n) => n.endsWith(".tmp"));
/** firstRequest resolves once the emulator has seen a billing request: the command is past its checks. */
async function firstRequest(): Promise<void> {
  for (let i = 0; i < 300 && billingRequests() === 0; i++) await new Promise((r) => setTimeout(r, 50));
}
const billingRequests = () => emu.requests.filter((r) => r.path === "/bill/graphql").length;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const today = isoDay(new Date());
  const daily = Array.from({ length: 90 }, (_, i) => ({
    day: addDays(today, -i),
    totalAmount: 100,
    totalBonuses: 0,
  }));
  emu.setProject({ id: PROJECT, products: { 1: { balance: 5000, bonuses: 0, daily } } });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  dir = mkdtempSync(join(tmpdir(), "costgate-writes-"));
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  emu.resetKnobs();
  emu.requests.length = 0;
});

describe("the --html report", () => {
  it("under a file-size limit: the old report is intact, exit 4 naming the file and what to do, no temp file", async () => {
    const d = mkdtempSync(join(dir, "efbig-"));
    const html = join(d, "report.html");
    writeFileSync(html, OLD);
    const r = await run(report(html, ...PASS), { fileSizeKiB: 8 });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`--html: cannot write ${html} (EFBIG): the file is over a size limit`);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(readFileSync(html, "utf8")).toBe(OLD);
    expect(leftovers(d)).toEqual([]);
    // the terminal report itself was printed: only the file failed
    expect(r.stdout).toContain(`Project ${PROJECT}`);
  });

  it("with --gate and a failing rule: exit 1 wins, the write error is still on stderr", async () => {
    const d = mkdtempSync(join(dir, "gate-"));
    const html = join(d, "report.html");
    writeFileSync(html, OLD);
    const r = await run(report(html, ...FAIL, "--gate"), { fileSizeKiB: 8 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("(EFBIG)");
    expect(readFileSync(html, "utf8")).toBe(OLD);
    expect(leftovers(d)).toEqual([]);
  });

  it("a rewrite keeps a 0600 report 0600, and a new report gets 0666 less the umask", async () => {
    const d = mkdtempSync(join(dir, "mode-"));
    const html = join(d, "report.html");
    writeFileSync(html, OLD);
    chmodSync(html, 0o600);
    expect((await run(report(html, ...PASS))).code).toBe(0);
    expect(statSync(html).mode & 0o777).toBe(0o600);
    expect(readFileSync(html, "utf8")).toMatch(/^<!doctype html>/i);
    expect(readFileSync(html, "utf8")).not.toBe(OLD);
    const fresh = join(d, "new.html");
    const r = await run(report(fresh, ...PASS));
    expect(r.code).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o666 & ~currentUmask());
    expect(leftovers(d)).toEqual([]);
  });

  it("a symbolic link is followed (the file it points at is replaced); a pipe or /dev/null is written in place", async () => {
    const d = mkdtempSync(join(dir, "link-"));
    writeFileSync(join(d, "real.html"), OLD);
    symlinkSync("real.html", join(d, "link.html"));
    expect((await run(report(join(d, "link.html"), ...PASS))).code).toBe(0);
    expect(lstatSync(join(d, "link.html")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, "real.html"), "utf8")).toMatch(/^<!doctype html>/i);
    const piped = await run([...report("/dev/stdout", ...PASS), "--json"], { pipe: true });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/<\/html>\s*$/);
    expect((await run(report("/dev/null", ...PASS))).code).toBe(0);
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
    expect(leftovers(d)).toEqual([]);
  });

  it("a report whose folder vanishes while the requests run is exit 4 (not 2: requests were sent)", async () => {
    const d = mkdtempSync(join(dir, "vanish-"));
    const sub = join(d, "out");
    mkdirSync(sub);
    emu.knobs.billing.latencyMs = 700;
    const pending = run(report(join(sub, "report.html"), ...PASS));
    await firstRequest();
    rmdirSync(sub);
    const r = await pending;
    expect(billingRequests()).toBeGreaterThan(0);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/--html: cannot write .*report\.html \(ENOENT\): the folder does not exist/);
  });

  it("a path under a file (ENOTDIR) is refused before anything is sent", async () => {
    const d = mkdtempSync(join(dir, "notdir-"));
    writeFileSync(join(d, "plain"), "x");
    const r = await run(report(join(d, "plain", "report.html"), ...PASS));
    expect(r.code).toBe(2);
    expect(billingRequests()).toBe(0);
  });
});

describe("--summary", () => {
  const summaryOf = (d: string) => join(d, "summary.md");
  const BEFORE = "## an earlier step\n\nits summary, which must survive\n";

  it.each([
    ["check", ["check", "--project-id", String(PROJECT), ...PASS]],
    ["report", ["report", "--project-id", String(PROJECT), ...PASS]],
  ])("%s under a file-size limit: the summary is as it was, exit 4", async (_, args) => {
    const d = mkdtempSync(join(dir, "sum-"));
    // just under 8 KiB: the block does not fit, a part of it would
    const before = `${BEFORE}${"x".repeat(8 * 1024 - BEFORE.length - 10)}\n`;
    writeFileSync(summaryOf(d), before);
    const r = await run([...args, "--summary", summaryOf(d)], { fileSizeKiB: 8 });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`--summary: cannot write ${summaryOf(d)} (EFBIG)`);
    expect(readFileSync(summaryOf(d), "utf8")).toBe(before);
  });

  it("check with a failing rule and a summary that cannot be written: exit 1, the write error on stderr", async () => {
    const d = mkdtempSync(join(dir, "sumfail-"));
    writeFileSync(summaryOf(d), `${BEFORE}${"x".repeat(8 * 1024 - BEFORE.length - 10)}\n`);
    const r = await run(["check", "--project-id", String(PROJECT), ...FAIL, "--summary", summaryOf(d)], {
      fileSizeKiB: 8,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL/);
    expect(r.stderr).toContain("--summary: cannot write");
  });

  it("appends the whole block when it fits, after what was there", async () => {
    const d = mkdtempSync(join(dir, "sumok-"));
    writeFileSync(summaryOf(d), BEFORE);
    const r = await run(["check", "--project-id", String(PROJECT), ...PASS, "--summary", summaryOf(d)], {
      fileSizeKiB: 64,
    });
    expect(r.code).toBe(0);
    const text = readFileSync(summaryOf(d), "utf8");
    expect(text.startsWith(BEFORE)).toBe(true);
    expect(text).toMatch(/costgate check: project 5150 — PASS/);
  });

  it("GITHUB_STEP_SUMMARY that is a folder: exit 2 before anything is sent, naming the variable", async () => {
    const d = mkdtempSync(join(dir, "sumdir-"));
    const r = await run(["check", "--project-id", String(PROJECT), ...PASS], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: d },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`GITHUB_STEP_SUMMARY: ${d} is a folder`);
    expect(billingRequests()).toBe(0);
  });

  it("a summary whose folder vanishes while the requests run: exit 4 with the hint, never 2", async () => {
    const d = mkdtempSync(join(dir, "sumvanish-"));
    const sub = join(d, "out");
    mkdirSync(sub);
    emu.knobs.billing.latencyMs = 700;
    const pending = run(["check", "--project-id", String(PROJECT), ...PASS, "--summary", join(sub, "s.md")]);
    await firstRequest();
    rmdirSync(sub);
    const r = await pending;
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/--summary: cannot write .*s\.md \(ENOENT\): the folder does not exist/);
  });
});

describe("standard output that cannot be written (> /dev/full)", () => {
  it("is exit 4 when the gate passed, 1 when it failed; the error on stderr either way", async () => {
    const check = ["check", "--project-id", String(PROJECT)];
    const passed = await run([...check, ...PASS], { stdout: "/dev/full" });
    expect(passed.code).toBe(4);
    expect(passed.stderr).toContain("cannot write the output (ENOSPC): the disk is full");
    const failed = await run([...check, ...FAIL], { stdout: "/dev/full" });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("cannot write the output (ENOSPC)");
  });
});

describe("policy-config --output", () => {
  it("under a file-size limit the old config is intact; otherwise it is replaced, its mode kept", async () => {
    const d = mkdtempSync(join(dir, "pc-"));
    const cfg = join(d, "costgate.yaml");
    const projects = Array.from(
      { length: 400 },
      (_, i) => `  - projectId: ${1000 + i}\n    monthlyBudget: ${i + 1}`,
    );
    writeFileSync(cfg, `monthlyBudget: 500\nprojects:\n${projects.join("\n")}\n`);
    const out = join(d, "policy-config.json");
    writeFileSync(out, '{"old": true}\n');
    chmodSync(out, 0o640);
    const r = await run(["policy-config", "--config", cfg, "--output", out], { fileSizeKiB: 8 });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`--output: cannot write ${out} (EFBIG)`);
    expect(readFileSync(out, "utf8")).toBe('{"old": true}\n');
    expect(leftovers(d)).toEqual([]);
    const ok = await run(["policy-config", "--config", cfg, "--output", out]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe("");
    expect(JSON.parse(readFileSync(out, "utf8"))).toHaveProperty("monthly-budget");
    expect(statSync(out).mode & 0o777).toBe(0o640);
  });
});

describe("on a full or read-only file system (tmpfs; skipped where mount is not permitted)", () => {
  let mnt: string | undefined;
  beforeAll(() => {
    const m = mkdtempSync(join(dir, "tmpfs-"));
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", m], { stdio: "ignore" });
      mnt = m;
    } catch {
      mnt = undefined;
    }
  });
  afterAll(() => {
    if (mnt) execFileSync("umount", [mnt], { stdio: "ignore" });
  });

  it("a full disk (ENOSPC): the old report and the summary are as they were, exit 4", async (ctx) => {
    if (!mnt) return ctx.skip();
    const html = join(mnt, "report.html");
    const summary = join(mnt, "summary.md");
    writeFileSync(html, OLD);
    // 6 bytes short of a page: the block starts to fit, then the disk is full
    const before = `before\n${"x".repeat(4096 - 6 - 7)}`;
    writeFileSync(summary, before);
    try {
      try {
        writeFileSync(join(mnt, "filler"), Buffer.alloc(128 * 1024));
      } catch {
        // ENOSPC: the rest of the 64 KiB is full, as wanted
      }
      const r = await run(report(html, ...PASS, "--summary", summary));
      expect(r.code).toBe(4);
      expect(r.stderr).toContain("(ENOSPC): the disk is full");
      expect(r.stderr).toMatch(/--html: cannot write/);
      expect(r.stderr).toMatch(/--summary: cannot write/);
      expect(readFileSync(html, "utf8")).toBe(OLD);
      expect(readFileSync(summary, "utf8")).toBe(before);
      expect(leftovers(mnt)).toEqual([]);
    } finally {
      rmSync(join(mnt, "filler"), { force: true });
    }
  });

  it("a read-only file system (EROFS): exit 4, the old report as it was", async (ctx) => {
    if (!mnt) return ctx.skip();
    const html = join(mnt, "ro.html");
    writeFileSync(html, OLD);
    execFileSync("mount", ["-o", "remount,ro", mnt], { stdio: "ignore" });
    try {
      const r = await run(report(html, ...PASS));
      expect(r.code).toBe(4);
      expect(r.stderr).toContain("(EROFS): the file system is read-only");
      expect(readFileSync(html, "utf8")).toBe(OLD);
    } finally {
      execFileSync("mount", ["-o", "remount,rw", mnt], { stdio: "ignore" });
    }
  });
});

/** currentUmask is the umask a child process gets (process.umask is not available in a worker). */
function currentUmask(): number {
  return Number.parseInt(execFileSync("sh", ["-c", "umask"], { encoding: "utf8" }).trim(), 8);
}
