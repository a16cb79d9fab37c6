/**
 * Inputs of any size: every file or stream costgate reads has a cap (64 MiB for a preview, 1 MiB for a
 * config file, a rate card, clouds.yaml or a CA bundle; --max-input-size or COSTGATE_MAX_INPUT_SIZE
 * sets it). Over it is exit 2 naming the input and the flag that raises the cap: a file measured before
 * it is read, a stream (standard input, a device) read no further than the cap. Real processes.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { isConfigError } from "../../provider/errors";
import { formatSize, parseSize, readStreamBounded } from "../../provider/files";
import { runCli } from "../helpers/cli";

const BIN = resolve(__dirname, "../../bin/costgate");
const FIX = resolve(__dirname, "../fixtures/preview");
const CARD = join(FIX, "rate-card.yaml");
const TIME = "/usr/bin/time";

let dir: string;
let emu: Emulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "costgate-sizes-"));
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** sparse makes a file of `bytes` that takes no disk space (never read whole, never allocated here). */
function sparse(name: string, bytes: number): string {
  const path = join(dir, name);
  writeFileSync(path, "");
  truncateSync(path, bytes);
  return path;
}

/**
 * shell runs a bash line with BIN and TIME set; the costgate process's peak RSS (KiB) comes from
 * /usr/bin/time when the machine has it, on fd 3's file.
 */
function shell(line: string): Promise<{ code: number; stderr: string; ms: number; rssKiB?: number }> {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const timed = existsSync(TIME) ? `"$TIME" -o "${rssFile}" -f %M ` : "";
  const started = Date.now();
  return new Promise((ok) => {
    execFile(
      "bash",
      ["-c", line.replaceAll("COSTGATE", `${timed}node "$BIN"`)],
      { env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", BIN, TIME }, timeout: 60_000 },
      (err, _stdout, stderr) => {
        const rss = existsSync(rssFile)
          ? Number(readFileSync(rssFile, "utf8").trim().split("\n").pop())
          : undefined;
        ok({
          code: err ? (typeof err.code === "number" ? err.code : -1) : 0,
          stderr,
          ms: Date.now() - started,
          ...(rss ? { rssKiB: rss } : {}),
        });
      },
    );
  });
}

describe("cost --preview - (standard input)", () => {
  it("700 MB piped in: exit 2 naming the cap and --max-input-size, stops reading at the cap, bounded memory", async () => {
    // head reports 141 (SIGPIPE) when costgate stopped reading before the 700 MB ended
    const r = await shell(
      `set -o pipefail; head -c 700000000 /dev/zero | COSTGATE cost --preview - --rate-card "${CARD}"; echo "codes \${PIPESTATUS[*]}" >&2`,
    );
    expect(r.stderr).toContain(
      "--preview: standard input is over the 64 MiB cap on this input; check that it is the right one, or raise the cap with --max-input-size 128MiB (or COSTGATE_MAX_INPUT_SIZE)",
    );
    expect(r.stderr).toMatch(/codes 141 2/);
    expect(r.ms).toBeLessThan(20_000);
    if (r.rssKiB !== undefined) expect(r.rssKiB).toBeLessThan(400 * 1024);
  });

  it("a 600 MB file redirected to standard input is refused by its size before it is read", async () => {
    const big = sparse("big-stdin.json", 600 * 1024 * 1024);
    const r = await shell(`COSTGATE cost --preview - --rate-card "${CARD}" < "${big}"`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--preview: standard input (600 MiB) is over the 64 MiB cap");
    expect(r.stderr).toContain("--max-input-size 1GiB");
    if (r.rssKiB !== undefined) expect(r.rssKiB).toBeLessThan(150 * 1024);
  });

  it("--max-input-size sets the cap: a padded preview is refused under it and priced above it", async () => {
    const padded = join(dir, "padded.json");
    writeFileSync(padded, `${readFileSync(join(FIX, "all-ops.json"), "utf8")}${" ".repeat(100_000)}\n`);
    const small = await shell(
      `cat "${padded}" | COSTGATE cost --preview - --rate-card "${CARD}" --max-input-size 64KiB`,
    );
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/over the 64 KiB cap/);
    const big = await runCli(
      ["cost", "--preview", padded, "--rate-card", CARD, "--max-input-size", "1MiB"],
      {},
    );
    expect(big.code).toBe(0);
    const plain = await runCli(["cost", "--preview", join(FIX, "all-ops.json"), "--rate-card", CARD], {});
    expect(big.stdout).toBe(plain.stdout);
  });
});

describe("cost --preview FILE", () => {
  it("a sparse 600 MB file: exit 2 before reading it, in bounded time and memory", async () => {
    const big = sparse("big.json", 600 * 1024 * 1024);
    const r = await shell(`COSTGATE cost --preview "${big}" --rate-card "${CARD}"`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--preview: ${big} (600 MiB) is over the 64 MiB cap on this input`);
    expect(r.stderr).toContain("--max-input-size 1GiB (or COSTGATE_MAX_INPUT_SIZE)");
    expect(r.ms).toBeLessThan(10_000);
    if (r.rssKiB !== undefined) expect(r.rssKiB).toBeLessThan(150 * 1024);
  });

  it("a device with no end (/dev/zero) is read no further than the cap", async () => {
    const r = await runCli(
      ["cost", "--preview", "/dev/zero", "--rate-card", CARD, "--max-input-size", "2MiB"],
      {},
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--preview: /dev/zero is over the 2 MiB cap");
  });

  it("COSTGATE_MAX_INPUT_SIZE sets the cap; a bad size is exit 2 naming the flag or the variable", async () => {
    const preview = join(FIX, "all-ops.json");
    const env = await runCli(["cost", "--preview", preview, "--rate-card", CARD], {
      COSTGATE_MAX_INPUT_SIZE: "1KiB",
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/over the 1 KiB cap/);
    const bad = await runCli(
      ["cost", "--preview", preview, "--rate-card", CARD, "--max-input-size", "lots"],
      {},
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--max-input-size: "lots" is not a size; give bytes or a size with a unit, e.g. 512MiB',
    );
    const badEnv = await runCli(["cost", "--preview", preview, "--rate-card", CARD], {
      COSTGATE_MAX_INPUT_SIZE: "-1",
    });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("COSTGATE_MAX_INPUT_SIZE:");
  });
});

describe("settings files: 1 MiB unless raised", () => {
  const bigYaml = () => sparse("big.yaml", 2 * 1024 * 1024);

  it.each([
    ["--config of check", ["check", "--project-id", "1", "--min-balance", "1", "--config"]],
    ["--config of report", ["report", "--config"]],
    ["--config of policy-config", ["policy-config", "--config"]],
    ["--rate-card of cost", ["cost", "--preview", join(FIX, "all-ops.json"), "--rate-card"]],
  ])("%s: exit 2 naming the file and --max-input-size, nothing sent", async (_, args) => {
    const big = bigYaml();
    emu.requests.length = 0;
    const r = await runCli([...args, big], {
      COSTGATE_BILLING_URL: emu.billingUrl,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${big}: the file (2 MiB) is over the 1 MiB cap on this input`);
    expect(r.stderr).toContain("--max-input-size 4MiB (or COSTGATE_MAX_INPUT_SIZE)");
    expect(emu.requests).toHaveLength(0);
  });

  it("clouds.yaml and the CA bundle: exit 2 naming COSTGATE_MAX_INPUT_SIZE, nothing sent", async () => {
    const big = bigYaml();
    emu.requests.length = 0;
    const clouds = await runCli(["token", "--os-cloud", "prod"], { OS_CLIENT_CONFIG_FILE: big });
    expect(clouds.code).toBe(2);
    expect(clouds.stderr).toContain(`${big}: the file (2 MiB) is over the 1 MiB cap`);
    expect(clouds.stderr).toContain("COSTGATE_MAX_INPUT_SIZE=4MiB");
    const ca = await runCli(["token"], {
      OS_AUTH_URL: emu.identityUrl,
      OS_APPLICATION_CREDENTIAL_ID: emu.seed.applicationCredentials.demo.id,
      OS_APPLICATION_CREDENTIAL_SECRET: emu.seed.applicationCredentials.demo.secret,
      OS_CACERT: sparse("ca.pem", 600 * 1024 * 1024),
    });
    expect(ca.code).toBe(2);
    expect(ca.stderr).toMatch(/cacert: .*ca\.pem \(600 MiB\) is over the 1 MiB cap/);
    expect(emu.requests).toHaveLength(0);
  });
});

describe("token revoke - (standard input)", () => {
  it("5 MB piped in is refused at the 1 MiB cap, nothing sent", async () => {
    emu.requests.length = 0;
    const r = await shell(
      `head -c 5000000 /dev/zero | OS_AUTH_URL="${emu.identityUrl}" COSTGATE token revoke -`,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("token revoke: standard input is over the 1 MiB cap");
    expect(emu.requests).toHaveLength(0);
  });
});

describe("readStreamBounded and parseSize (properties)", () => {
  it("a stream is refused exactly when it holds more than the cap, and never read far past it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 60_000 }),
        async (sizes, cap) => {
          let pulled = 0;
          const chunks = sizes.map((n) => Buffer.alloc(n, 0x61));
          const stream = Readable.from(
            (function* () {
              for (const c of chunks) {
                pulled += c.length;
                yield c;
              }
            })(),
          );
          const total = sizes.reduce((a, b) => a + b, 0);
          try {
            const text = await readStreamBounded(stream, {
              field: "--preview",
              kind: "preview",
              maxBytes: cap,
            });
            expect(total).toBeLessThanOrEqual(cap);
            expect(text.length).toBe(total);
          } catch (e) {
            expect(isConfigError(e)).toBe(true);
            expect(total).toBeGreaterThan(cap);
            // at most one chunk past the cap was taken
            expect(pulled).toBeLessThanOrEqual(cap + 5000);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("parseSize reads what formatSize writes, in powers of 1024", () => {
    expect(parseSize("512MB", "f")).toBe(512 * 1024 * 1024);
    expect(parseSize("1g", "f")).toBe(1024 ** 3);
    expect(parseSize("64 KiB", "f")).toBe(65536);
    expect(parseSize("1048576", "f")).toBe(1048576);
    for (const bad of ["", "0", "-1", "1.5.5", "12 parsecs", "1e9", "MiB"])
      expect(() => parseSize(bad, "f")).toThrow(/f: /);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (n) => {
        const back = parseSize(formatSize(n).replace(" ", "").replace("bytes", ""), "f");
        // formatSize rounds to one decimal: within 5 % of the unit
        expect(Math.abs(back - n) / n).toBeLessThan(0.05);
      }),
    );
  });
});
