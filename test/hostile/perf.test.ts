/**
 * Costs near the floor (issue 21, item 7), held as behaviour: what each command loads at start is what it
 * needs, so a change that pulls zod (or undici's HTTP/2 client) back onto a command's start fails here,
 * not months later in a benchmark. And the hand-written auth check that replaced the zod schemas accepts
 * and refuses exactly what they did, on arbitrary inputs, in bounded time. Real processes against the
 * emulator on 127.0.0.1.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Emulator, startEmulator } from "../../emulator";
import { resetRun } from "../../policies/budget/data";
import { budgetPolicies } from "../../policies/budget/policies";
import {
  BUDGET_KEYS,
  budgetConfigSchema,
  budgetSettingsSurelyValid,
  parseBudgetConfig,
  plainObject,
} from "../../provider/budget/config";
import {
  configSurelyValid,
  costgateConfigSchema,
  parseCostgateConfig,
} from "../../provider/budget/config-file";
import { checkInput } from "../../provider/budget/series";
import { hasDuplicateKey, parseDataText, parseWithYaml } from "../../provider/data-file";
import { isConfigError } from "../../provider/errors";
import { HTTP2_CONSTANTS, lazyHttp2 } from "../../provider/http/dispatcher";
import { METHOD_FIELDS, validateAuth } from "../../provider/identity/auth";
import { formatFixed1, formatMoney, formatNumber } from "../../provider/money";
import { type Price, Pricer, priceMonthly } from "../../provider/pricing/price";
import {
  parseRateCard,
  type RateCard,
  rateCardSchema,
  rateCardSurelyValid,
} from "../../provider/pricing/rate-card";
import { cleanText, stripControls } from "../../provider/text";

const BIN = resolve(__dirname, "../../bin/costgate");
/** scripts/calendar.js's preload (test tooling that moves the clock), not a file the command loads. */
const SHIFTED_CLOCK = /[/\\]test[/\\]helpers[/\\]shifted-clock\.cjs$/;
const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 300) };

let dir: string;
let emu: Emulator;
let loadedFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "costgate-perf-"));
  emu = await startEmulator({ port: 0 });
  // a preload that writes, at exit, every module file and built-in module the process loaded
  loadedFile = join(dir, "loaded.js");
  writeFileSync(
    loadedFile,
    `let formatters = 0;
Intl.NumberFormat = new Proxy(Intl.NumberFormat, { construct(T, a) { formatters++; return new T(...a); } });
process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADED_OUT, JSON.stringify({
  files: Object.keys(require.cache), builtins: process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")),
  formatters,
})));\n`,
  );
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** loads runs the built command with the preload and returns its exit code and what it loaded. */
function loads(args: string[], env: Record<string, string> = {}) {
  const out = join(dir, `loaded-${Math.random().toString(36).slice(2)}.json`);
  return new Promise<{
    code: number;
    files: string[];
    builtins: string[];
    formatters: number;
    stdout: string;
    stderr: string;
  }>((ok) => {
    execFile(
      process.execPath,
      ["-r", loadedFile, BIN, ...args],
      {
        env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", LOADED_OUT: out, ...env },
        timeout: 30_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        const { files, builtins, formatters } = JSON.parse(require("node:fs").readFileSync(out, "utf8")) as {
          files: string[];
          builtins: string[];
          formatters: number;
        };
        ok({
          code,
          files: files.filter((f) => f !== loadedFile && !SHIFTED_CLOCK.test(f)),
          builtins,
          formatters,
          stdout,
          stderr,
        });
      },
    );
  });
}

const inPackage = (files: string[], name: string) =>
  files.filter((f) => f.includes(`/node_modules/${name}/`));

describe("what a command loads at start", () => {
  it("balance with a billing token loads neither zod, node:http2 nor the identity token reader", async () => {
    const r = await loads(["balance", "--project-id", "4242"], {
      COSTGATE_BILLING_URL: emu.billingUrl,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(inPackage(r.files, "zod")).toEqual([]);
    expect(r.files.filter((f) => /identity\/(tokens|results)\.js$/.test(f))).toEqual([]);
    expect(inPackage(r.files, "undici").length).toBeGreaterThan(0);
    // undici's HTTP/2 client loads without node:http2 (provider/http/dispatcher.ts, withoutHttp2)
    expect(r.builtins.filter((m) => m.includes("http2"))).toEqual([]);
    // amounts in cents are written without Intl, whose first formatter costs ICU's data (~18 ms)
    expect(r.stdout).toMatch(/balance [\d,]+\.\d\d/);
    expect(r.formatters).toBe(0);
  });

  it("--version loads nothing but the launcher and package.json", async () => {
    const r = await loads(["--version"]);
    expect(r.code).toBe(0);
    expect(r.files.map((f) => f.replace(/.*\//, "")).sort()).toEqual(["costgate", "package.json"]);
  });

  it("check with a JSON config loads no YAML parser and builds no Intl formatter; a key given twice is still refused where it stands", async () => {
    const config = join(dir, "check.json");
    writeFileSync(config, JSON.stringify({ projectId: 4242, minBalance: 1 }));
    const env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
    const r = await loads(["check", "--config", config, "--json"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(inPackage(r.files, "yaml")).toEqual([]);
    // a surely-valid file is read by hand: zod (~60 ms) only names what is wrong
    expect(inPackage(r.files, "zod")).toEqual([]);
    // its messages' days and factors are written without Intl (formatFixed1, formatNumber)
    expect(r.formatters).toBe(0);
    writeFileSync(config, '{"projectId": 4242,\n "minBalance": 1,\n "minBalance": 2}');
    const twice = await loads(["check", "--config", config], env);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/check\.json:3:\d+:? is not valid JSON \(a key given twice\)/);
  });

  it("cost --preview without a project loads neither the billing client, the rules nor a YAML parser", async () => {
    const preview = join(dir, "preview.json");
    const card = join(dir, "card.json");
    writeFileSync(
      preview,
      JSON.stringify({
        steps: [
          {
            op: "create",
            urn: "urn:pulumi:dev::app::openstack:compute/instance:Instance::vm",
            newState: { type: "openstack:compute/instance:Instance", inputs: { flavorName: "m1.small" } },
          },
        ],
      }),
    );
    writeFileSync(card, JSON.stringify({ flavors: { "m1.small": 0.5 } }));
    const r = await loads(["cost", "--preview", preview, "--rate-card", card, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).totals.monthlyDelta).toBe(365);
    const ours = r.files.map((f) => f.replace(/.*\/dist\//, ""));
    expect(
      ours.filter((f) => /provider\/(check|billing\/client|budget\/(engine|model))\.js$/.test(f)),
    ).toEqual([]);
    expect(inPackage(r.files, "yaml")).toEqual([]);
    expect(inPackage(r.files, "p-limit")).toEqual([]);
    expect(inPackage(r.files, "zod")).toEqual([]);
  });

  it("check and cost --preview with every setting load no zod; a bad file is refused in zod's words, as before", async () => {
    const env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
    const card = {
      currency: "EUR",
      flavors: { "m1.small": 0.5, "m1.large": { month: 87.6 } },
      powerStates: { shelved: 0.25 },
      volumeGbMonth: 0.1,
      volumeTypes: { ssd: 0.2 },
      floatingIpHour: 0.005,
      types: {
        "openstack:networking/network:Network": { month: 0 },
        x: { property: "size", perUnitMonth: 1 },
      },
    };
    const all = {
      $schema: "./schema.json",
      projects: [{ projectId: 4242, minBalance: 1.5, levels: { "daily-spike": "disabled" } }],
      product: "openstack",
      currency: "EUR",
      rateCard: card,
      minBalance: 0,
      includeBonuses: true,
      monthlyBudget: 45000.55,
      forecast: false,
      minRunwayDays: 7,
      spikeFactor: 3,
      spikeWindowDays: 14,
      trailingDays: 7,
      extraDailyCost: -1.25,
      quantile: "p90",
      forecastMethod: "trailing-mean",
      levels: { "min-balance": "advisory" },
    };
    const config = join(dir, "all.json");
    writeFileSync(config, JSON.stringify(all));
    const r = await loads(["check", "--config", config, "--json"], env);
    expect([0, 1], r.stderr).toContain(r.code);
    expect(JSON.parse(r.stdout).projects).toHaveLength(1);
    expect(inPackage(r.files, "zod")).toEqual([]);
    const preview = join(dir, "preview-all.json");
    writeFileSync(preview, JSON.stringify({ steps: [] }));
    const c = await loads(["cost", "--preview", preview, "--config", config, "--json"], env);
    expect(c.code, c.stderr).toBe(0);
    expect(inPackage(c.files, "zod")).toEqual([]);
    // refusals: zod still words them, naming the field and the line
    writeFileSync(config, JSON.stringify({ ...all, projects: [{ projectId: 4242, minBalance: 1.005 }] }));
    const bad = await loads(["check", "--config", config], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /all\.json:1: projects\[0\]\.minBalance: has more than 2 decimals; round it to cents/,
    );
    writeFileSync(config, JSON.stringify({ ...all, rateCard: { ...card, flavors: { "m1.small": -1 } } }));
    const badCard = await loads(["cost", "--preview", preview, "--config", config], env);
    expect(badCard.code).toBe(2);
    expect(badCard.stderr).toMatch(/rateCard.*flavors\.m1\.small: must be 0 or more/);
    expect(inPackage(badCard.files, "zod").length).toBeGreaterThan(0);
  });

  it("--help sends nothing and loads neither undici nor zod", async () => {
    const r = await loads(["--help"]);
    expect(r.code).toBe(0);
    expect(inPackage(r.files, "undici")).toEqual([]);
    expect(inPackage(r.files, "zod")).toEqual([]);
  });

  it("watch --once without a state file loads no zod; the state and token schemas require it only when built", async () => {
    const env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
    const r = await loads(["watch", "--once", "--project-id", "4242", "--min-balance", "1"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.files.some((f) => /watch\/state\.js$/.test(f))).toBe(true);
    expect(inPackage(r.files, "zod")).toEqual([]);
    // loading the modules that hold the schemas pays nothing; reading a state file builds one
    const dist = resolve(__dirname, "../../dist/provider");
    const probe = `const s = require(${JSON.stringify(`${dist}/watch/state.js`)});
require(${JSON.stringify(`${dist}/identity/results.js`)});
const zod = () => Object.keys(require.cache).filter((f) => f.includes("/node_modules/zod/")).length;
const before = zod();
s.parseWatchState('{"version": 1, "firing": {}, "readErrors": {}, "outbox": []}', "--state");
process.stdout.write(JSON.stringify([before, zod()]));`;
    const [before, after] = JSON.parse(
      execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }),
    ) as [number, number];
    expect(before).toBe(0);
    expect(after).toBeGreaterThan(0);
  });
});

// The zod schemas validateAuth was before (session 6), kept here as the reference it must agree with.
const nonEmpty = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} is empty`);
const REFERENCE = {
  application_credential: z
    .object({
      type: z.literal("application_credential"),
      applicationCredentialId: nonEmpty("applicationCredentialId").optional(),
      applicationCredentialName: nonEmpty("applicationCredentialName").optional(),
      applicationCredentialSecret: z.string().min(1, "applicationCredentialSecret is empty"),
      userId: nonEmpty("userId").optional(),
      userName: nonEmpty("userName").optional(),
      userDomainId: nonEmpty("userDomainId").optional(),
      userDomainName: nonEmpty("userDomainName").optional(),
    })
    .strict(),
  password: z
    .object({
      type: z.literal("password"),
      userName: nonEmpty("userName").optional(),
      userId: nonEmpty("userId").optional(),
      userDomainName: nonEmpty("userDomainName").optional(),
      userDomainId: nonEmpty("userDomainId").optional(),
      password: z.string().min(1, "password is empty"),
      projectId: nonEmpty("projectId").optional(),
      projectName: nonEmpty("projectName").optional(),
      projectDomainId: nonEmpty("projectDomainId").optional(),
      projectDomainName: nonEmpty("projectDomainName").optional(),
    })
    .strict(),
};

const ALL_KEYS = [
  ...new Set([...Object.keys(METHOD_FIELDS.application_credential), ...Object.keys(METHOD_FIELDS.password)]),
];
/** Values a hostile caller or environment could hand over: blank, padded, non-strings, huge. */
const value = fc.oneof(
  fc.constantFrom(undefined, "", " ", "\t\n", " ac1 ", "x", null, 0, 1, true, [], {}, "x".repeat(100_000)),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const authInput = fc.record(
  {
    type: fc.constantFrom("password", "application_credential", "token", undefined, 1),
    ...Object.fromEntries(ALL_KEYS.map((k) => [k, value])),
    extra: fc.constantFrom("__proto__", "constructor", "toString", "surprise", "hasOwnProperty"),
    extraValue: value,
    withExtra: fc.boolean(),
  },
  { requiredKeys: ["type", "withExtra", "extra", "extraValue"] },
);

/** withoutUndefined drops keys whose value is undefined (zod keeps them; nothing reads them). */
function withoutUndefined(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

describe("validateAuth, a hand-written check, agrees with the zod schemas it replaced", () => {
  it("accepts what they accept, with the same (trimmed) values, and refuses the rest naming a field", () => {
    const started = performance.now();
    fc.assert(
      fc.property(authInput, (gen) => {
        const { extra, extraValue, withExtra, ...fields } = gen as Record<string, unknown>;
        // JSON.parse makes "__proto__" an own key, as a parsed config or state would
        const input = JSON.parse(JSON.stringify(fields)) as Record<string, unknown>;
        for (const [k, v] of Object.entries(fields)) if (v === undefined) input[k] = undefined;
        if (withExtra) Object.defineProperty(input, String(extra), { value: extraValue, enumerable: true });
        const reference =
          fields["type"] === "password" ? REFERENCE.password : REFERENCE.application_credential;
        const want = reference.safeParse(input);
        let got: unknown;
        let error: unknown;
        try {
          got = validateAuth(input);
        } catch (e) {
          error = e;
        }
        if (want.success) {
          // the schema's pass may still be refused by the combination rules after it: both sides run those
          if (error) expect(isConfigError(error)).toBe(true);
          else expect(withoutUndefined(got as object)).toEqual(withoutUndefined(want.data));
        } else {
          expect(error, JSON.stringify(input).slice(0, 200)).toBeDefined();
          expect(isConfigError(error)).toBe(true);
          const issue = want.error.issues[0]!;
          // zod names the field where it has a path; a key it does not know, or a value that is no
          // object, is the whole method ("auth") on both sides
          const field = issue.path.length ? String(issue.path[0]) : "auth";
          expect((error as { field: string }).field).toBe(field);
        }
      }),
      RUNS,
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("refuses what is not an object, naming the method, without echoing it", () => {
    for (const input of [undefined, null, "password", 42, [], [{ type: "password" }]]) {
      expect(() => validateAuth(input)).toThrowError(/^auth: must be an object/);
    }
  });

  it("never echoes a secret or an unknown key's value, and cuts a long key", () => {
    const secret = `canary-${Math.random()}`;
    const key = `k${"x".repeat(10_000)}`;
    try {
      validateAuth({ type: "password", userId: "u", password: secret, projectId: "p", [key]: secret });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain(secret);
      expect((e as Error).message.length).toBeLessThan(200);
    }
  });

  it("reads only own keys: a polluted prototype adds no field", () => {
    const proto = { password: "from-prototype", projectId: "p" };
    const input = Object.assign(Object.create(proto), { type: "password", userId: "u" });
    expect(() => validateAuth(input)).toThrowError(/^password: is missing/);
  });
});

describe("the fast paths of rendering agree with the slow ones", () => {
  const intl = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  it("formatMoney writes what Intl writes, for cents, any double and the edges", () => {
    const started = performance.now();
    const edges = [0, -0, 0.5, 1.005, -0.004, 999.995, 1e12 - 0.01, 1e12, -1e12, 1e21, 5e-324, Number.NaN];
    for (const v of [...edges, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER]) {
      expect(formatMoney(v), String(v)).toBe(intl.format(v));
    }
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(10 ** 15), max: 10 ** 15 }).map((c) => c / 100),
          fc.double({ noNaN: false }),
          fc.double({ min: -1e13, max: 1e13 }),
        ),
        (v) => {
          expect(formatMoney(v)).toBe(intl.format(v));
        },
      ),
      { numRuns: 5000 },
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("formatNumber and formatFixed1 write what Intl writes, for any double and 0 to 8 decimals", () => {
    const started = performance.now();
    const reference = (v: number, d: number, fixed: boolean) =>
      new Intl.NumberFormat("en-US", {
        minimumFractionDigits: fixed ? d : 0,
        maximumFractionDigits: d,
      }).format(v);
    const edges = [
      0,
      -0,
      0.05,
      0.15,
      -0.04,
      -0.05,
      2.5,
      9.95,
      1.005,
      999.95,
      1e15 - 0.5,
      1e15,
      1e21,
      5e-324,
      -5e-324,
      5e-7,
      9.9e-7,
      -5e-7,
      4.9e-6,
      5e-6,
    ];
    for (const v of [...edges, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(formatFixed1(v), String(v)).toBe(reference(v, 1, true));
      for (const d of [0, 1, 2, 6, 7]) expect(formatNumber(v, d), `${v} ${d}`).toBe(reference(v, d, false));
    }
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(10 ** 16), max: 10 ** 16 }).map((c) => c / 1000),
          fc.integer({ min: -(10 ** 6), max: 10 ** 6 }).map((c) => c / 20),
          fc.double({ noNaN: false }),
          fc.double({ min: -1e16, max: 1e16 }),
          fc.double({ min: -1, max: 1 }),
        ),
        fc.integer({ min: 0, max: 8 }),
        (v, d) => {
          expect(formatFixed1(v), String(v)).toBe(reference(v, 1, true));
          expect(formatNumber(v, d), `${v} ${d}`).toBe(reference(v, d, false));
          expect(formatNumber(v), String(v)).toBe(reference(v, 2, false));
        },
      ),
      { numRuns: 5000 },
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("cleanText without secrets is stripControls, whatever the text holds", () => {
    const chars = fc.constantFrom(
      "a",
      " ",
      "\n",
      "\r",
      "\t",
      "\x1b",
      "[",
      "2J",
      "\x9b",
      "\u202e",
      "\ufeff",
      "é",
      "€",
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.array(chars, { maxLength: 30 }).map((a) => a.join("")),
        ),
        (t) => {
          expect(cleanText(t)).toBe(stripControls(t));
          expect(cleanText(t, { multiline: true })).toBe(stripControls(t, true));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("checkInput's fast acceptance is a subset of the zod schema", () => {
  // the schema of provider/budget/series.ts, as a reference
  const finite = () => z.number();
  const amount = () => finite().min(-1e12).max(1e12);
  const charge = z.object({
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    totalAmount: amount(),
    totalBonuses: amount(),
  });
  const reference = z.object({
    projectId: finite().int(),
    balance: amount(),
    bonuses: amount(),
    consumption: z.array(charge),
    now: z.date(),
  });
  const num = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(Number.NaN, Infinity, "1", null, undefined, 1e12, -1e12, 1e12 + 0.01),
  );
  const day = fc.oneof(
    fc.constantFrom("2026-11-01", "2026-02-30", "2026-13-01", "26-11-01", "", "2026-11-01T00:00:00Z"),
    fc.string({ maxLength: 12 }),
  );
  const item = fc.oneof(
    fc.record({ day, totalAmount: num, totalBonuses: num }, { requiredKeys: [] }),
    fc.constantFrom(null, undefined, [], "x", 1),
  );
  // a hole, then a valid item: every() would skip the hole
  const sparse: unknown[] = [];
  sparse[1] = { day: "2026-11-01", totalAmount: 1, totalBonuses: 0 };
  it("never lets through what the schema refuses, and names a field when it refuses", () => {
    const started = performance.now();
    fc.assert(
      fc.property(
        fc.record({
          projectId: fc.oneof(num, fc.constant(2 ** 60)),
          balance: num,
          bonuses: num,
          consumption: fc.oneof(fc.array(item, { maxLength: 6 }), fc.constantFrom(null, {}, "x", sparse)),
          now: fc.oneof(fc.date(), fc.constantFrom(new Date(Number.NaN), "2026-11-01", 0)),
        }),
        (input) => {
          let refused: unknown;
          try {
            checkInput(input as never);
          } catch (e) {
            refused = e;
          }
          if (refused === undefined) expect(reference.safeParse(input).success).toBe(true);
          else expect(isConfigError(refused)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe("undici without node:http2 at load", () => {
  it("the stand-in's constants are node:http2's, and the rest is node:http2 itself", () => {
    const real = require("node:http2") as typeof import("node:http2");
    const stand = lazyHttp2() as typeof import("node:http2");
    for (const [k, v] of Object.entries(HTTP2_CONSTANTS)) {
      expect((real.constants as Record<string, unknown>)[k], k).toBe(v);
      expect((stand.constants as Record<string, unknown>)[k], k).toBe(v);
    }
    expect(stand.constants.HTTP2_HEADER_COOKIE).toBe(real.constants.HTTP2_HEADER_COOKIE);
    expect(stand.connect).toBe(real.connect);
    expect("connect" in stand).toBe(true);
  });

  it("loads no node:http2 for HTTP/1.1, and an undici asked for HTTP/2 still speaks it", () => {
    const key = join(dir, "h2-key.pem");
    const cert = join(dir, "h2-cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-subj",
        "/CN=127.0.0.1",
      ].concat(["-addext", "subjectAltName=IP:127.0.0.1", "-days", "1"]),
      { stdio: "ignore" },
    );
    const script = join(dir, "h2.js");
    // a fresh process: undici loaded by costgate's dispatcher first, as in the command
    writeFileSync(
      script,
      `"use strict";
const fs = require("node:fs");
const { undici } = require(${JSON.stringify(resolve(__dirname, "../../dist/provider/http/dispatcher.js"))});
const { Agent } = undici();
const before = process.moduleLoadList.filter((m) => m.includes("http2"));
const http2 = require("node:http2");
const [key, cert] = [fs.readFileSync(${JSON.stringify(key)}), fs.readFileSync(${JSON.stringify(cert)})];
const server = http2.createSecureServer({ key, cert }, (req, res) => res.end("HTTP/" + req.httpVersion));
server.listen(0, "127.0.0.1", async () => {
  const agent = new Agent({ allowH2: true, connect: { ca: cert } });
  const res = await agent.request({ origin: "https://127.0.0.1:" + server.address().port, path: "/", method: "GET" });
  const body = await res.body.text();
  await agent.close();
  server.close();
  process.stdout.write(JSON.stringify({ before, body }));
});
`,
    );
    const out = JSON.parse(
      execFileSync(process.execPath, [script], { encoding: "utf8", timeout: 30_000 }),
    ) as {
      before: string[];
      body: string;
    };
    expect(out.before).toEqual([]);
    expect(out.body).toBe("HTTP/2.0");
  });
});

const INSTANCE_T = "openstack:compute/instance:Instance";
const VOLUME_T = "openstack:blockstorage/volume:Volume";
const FIP_T = "openstack:networking/floatingIp:FloatingIp";
const CUSTOM_T = "acme:db/cluster:Cluster";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** Input values a preview or a stack holds: repeated on purpose (the memo's hits), and the keys it must not confuse. */
const priceValue = fc.constantFrom(
  undefined,
  null,
  "",
  "m1.small",
  "m1.large",
  "gone",
  "[secret]",
  UNKNOWN,
  "ssd",
  "hdd",
  "shelved_offloaded",
  "__proto__",
  "\u0000-0", // the memo's own key space: a string must not meet the -0 or an object's key
  '\u0000o{"a":1}',
  0,
  -0,
  1,
  "1",
  10,
  1e9,
  1e10,
  -5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  0.1,
  { a: 1 },
  [1],
  true,
);
const pricePart = fc.option(fc.constantFrom(0, 0.1, 0.25, 3.6, 1e6, 0.07), { nil: undefined });
const rateCard: fc.Arbitrary<RateCard> = fc
  .record({
    small: pricePart,
    large: fc.option(fc.oneof(pricePart, fc.record({ month: fc.constantFrom(10, 99.99) })), {
      nil: undefined,
    }),
    volumeGbMonth: pricePart,
    ssd: pricePart,
    floatingIpHour: pricePart,
    floatingIpMonth: pricePart,
    shelved: pricePart,
    custom: fc.option(
      fc.oneof(
        fc.record({ month: fc.constantFrom(0, 120) }),
        fc.record({
          property: fc.constantFrom("nodes", "size", "__proto__"),
          perUnitMonth: fc.constantFrom(5, 0.5),
        }),
        fc.record({ property: fc.constantFrom("nodes"), perUnitHour: fc.constantFrom(0.02) }),
      ),
      { nil: undefined },
    ),
  })
  .map((c) => {
    const card: Record<string, unknown> = {};
    const flavors: Record<string, unknown> = {};
    if (c.small !== undefined) flavors["m1.small"] = c.small;
    if (c.large !== undefined) flavors["m1.large"] = c.large;
    if (Object.keys(flavors).length) card["flavors"] = flavors;
    if (c.volumeGbMonth !== undefined) card["volumeGbMonth"] = c.volumeGbMonth;
    if (c.ssd !== undefined) card["volumeTypes"] = { ssd: c.ssd };
    if (c.floatingIpHour !== undefined) card["floatingIpHour"] = c.floatingIpHour;
    if (c.floatingIpMonth !== undefined) card["floatingIpMonth"] = c.floatingIpMonth;
    if (c.shelved !== undefined) card["powerStates"] = { shelved_offloaded: c.shelved };
    if (c.custom !== undefined) card["types"] = { [CUSTOM_T]: c.custom };
    return card as RateCard;
  });
const pricedResource = fc.record({
  type: fc.constantFrom(INSTANCE_T, VOLUME_T, FIP_T, CUSTOM_T, "openstack:networking/port:Port"),
  inputs: fc.dictionary(
    fc.constantFrom(
      "flavorName",
      "flavorId",
      "powerState",
      "size",
      "volumeType",
      "nodes",
      "__proto__",
      "name",
    ),
    priceValue,
  ),
});

describe("the pricing memo (one Pricer per command, or per run and card in the pack) prices as priceMonthly", () => {
  it("gives every resource of a stack the price priceMonthly gives it alone, whatever repeats", () => {
    const started = performance.now();
    fc.assert(
      fc.property(rateCard, fc.array(pricedResource, { maxLength: 40 }), (card, resources) => {
        const pricer = new Pricer(card);
        // twice over: the second pass is all memo hits
        for (const r of [...resources, ...resources]) {
          // JSON.parse makes "__proto__" an own key, as a parsed preview or config would
          const inputs = JSON.parse(JSON.stringify(r.inputs)) as Record<string, unknown>;
          for (const [k, v] of Object.entries(r.inputs)) if (typeof v === "number") inputs[k] = v; // NaN, -0, ∞
          const want: Price = priceMonthly(r.type, inputs, card);
          expect(pricer.price(r.type, inputs), JSON.stringify({ card, r })).toEqual(want);
        }
      }),
      RUNS,
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe("the pack's per-run memo (rate card, prices, targets parsed once a run) changes no policy's verdict", () => {
  type Stack = import("@pulumi/policy").StackValidationPolicy;
  beforeAll(() => {
    process.env["COSTGATE_BILLING_URL"] = emu.billingUrl;
    process.env["COSTGATE_BILLING_TOKEN"] = emu.seed.billing.token;
  });
  afterAll(() => {
    delete process.env["COSTGATE_BILLING_URL"];
    delete process.env["COSTGATE_BILLING_TOKEN"];
  });
  const rules = budgetPolicies.filter((p) => p.name !== "billing-available") as Stack[];
  /** A planned resource as the SDK hands it: computed outputs absent while it is being created. */
  const planned = (i: number, type: string, props: Record<string, unknown>) => ({
    type,
    name: `r${i}`,
    urn: `urn:pulumi:dev::app::${type}::r${i}`,
    props,
  });
  const cards = [
    { flavors: { "m1.small": 0.9, "m1.large": 3.6 }, volumeGbMonth: 8.5, floatingIpHour: 0.25 },
    { flavors: { "m1.small": 1e6 } },
    { flavors: { "m1.small": -1 } }, // refused: each policy names it
    undefined,
  ];
  const policyConfig = fc.record({
    projectId: fc.constantFrom(4242, 987_654_321, undefined),
    rateCard: fc.constantFrom(...cards),
    minBalance: fc.constantFrom(1, 1e9, undefined),
    monthlyBudget: fc.constantFrom(1, 1e9, undefined),
    minRunwayDays: fc.constantFrom(1, 400, undefined),
    spikeFactor: fc.constantFrom(1.01, 100, undefined),
  });
  const stack = fc.array(
    fc.record({
      type: fc.constantFrom(INSTANCE_T, VOLUME_T, FIP_T),
      flavorName: fc.constantFrom("m1.small", "m1.large", "m9.none"),
      size: fc.constantFrom(10, 20, 500),
      exists: fc.boolean(),
    }),
    { maxLength: 12 },
  );

  async function run(policy: Stack, resources: unknown[], config: Record<string, unknown>, env: string[]) {
    const out: string[] = [];
    await policy.validateStack(
      // a new config object per call, as the SDK's getConfig builds it
      { resources, getConfig: () => structuredClone(config), notApplicable: () => undefined } as never,
      (m) => out.push(m),
    );
    env.push(...out);
    return out;
  }

  it("a run of the whole pack reports per policy what each policy reports in a run of its own", async () => {
    const started = performance.now();
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(policyConfig, { minLength: rules.length, maxLength: rules.length }),
        stack,
        async (configs, gen) => {
          const resources = gen.map((g, i) =>
            planned(
              i,
              g.type,
              g.exists
                ? {
                    flavorName: g.flavorName,
                    size: g.size,
                    accessIpV4: "10.0.0.1",
                    attachments: [],
                    address: "203.0.113.9",
                  }
                : { flavorName: g.flavorName, size: g.size },
            ),
          );
          const clean = (c: Record<string, unknown>) =>
            Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
          // fast: one run, the policies in the pack's order, memo shared
          resetRun();
          const together: string[][] = [];
          for (const [i, p] of rules.entries())
            together.push(await run(p, resources, clean(configs[i]!), []));
          for (const m of together.flat()) seen.add(m.split(" ").slice(0, 4).join(" "));
          // slow: each policy in a run of its own, nothing remembered. The emulator's spend of today
          // grows as the clock runs, so amounts read from billing are masked; what the change adds (the
          // rate card's part) is compared whole.
          const same = (m: string) => {
            const [judged, change = ""] = m.split(/(?= This change adds )/);
            return `${judged!.replace(/\d[\d,.]*/g, "#")}${change.replace(/ Before it: .*/, "")}`;
          };
          for (const [i, p] of rules.entries()) {
            resetRun();
            const alone = await run(p, resources, clean(configs[i]!), []);
            expect(alone.map(same), `${p.name} ${JSON.stringify(configs[i])}`).toEqual(
              together[i]!.map(same),
            );
          }
        },
      ),
      { numRuns: Math.min(RUNS.numRuns, 40) },
    );
    expect(performance.now() - started).toBeLessThan(60_000);
    // the runs judged real data: a change priced, a threshold failed, a rate card refused, billing refused
    const kinds = [...seen].join("\n");
    for (const want of [/^Project 4242/m, /^Project 987654321 could/m, /^The [a-z-]+ policy's rate/m])
      expect(kinds).toMatch(want);
  }, 90_000);

  it("two policies of one run with different rate cards each price with their own", async () => {
    const resources = [planned(1, INSTANCE_T, { flavorName: "m1.small" })];
    const [monthly, runway] = [
      rules.find((p) => p.name === "monthly-budget")!,
      rules.find((p) => p.name === "min-runway-days")!,
    ];
    resetRun();
    const a = await run(monthly, resources, { projectId: 4242, monthlyBudget: 1, rateCard: cards[0] }, []);
    const b = await run(runway, resources, { projectId: 4242, minRunwayDays: 400, rateCard: cards[1] }, []);
    expect(a.join()).toMatch(/adds 21\.60\/day/);
    expect(b.join()).toMatch(/adds 24,000,000\.00\/day/);
  });
});

describe("a .json data file is read without YAML, as the YAML path reads it", () => {
  /** JSON text with keys that may repeat (as is or escaped), nested, spaced as a person writes it. */
  const key = fc.constantFrom("a", "b", "projectId", "__proto__", "\\u0061", 'a\\"', "", "{", "[,]");
  const leaf = fc.oneof(
    fc.constantFrom("1", "-2.5e3", "true", "null", '"x"', '"}\\\\"', '"{\\"a\\":1}"'),
    fc.json({ maxDepth: 1 }),
  );
  const text: fc.Arbitrary<string> = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("object"), tie("array")),
    object: fc
      .array(fc.tuple(key, tie("value") as fc.Arbitrary<string>), { maxLength: 5 })
      .map((es) => `{${es.map(([k, v]) => `"${k}" : ${v}`).join(",\n ")}}`),
    array: fc
      .array(tie("value") as fc.Arbitrary<string>, { maxLength: 4 })
      .map((vs) => `[ ${vs.join(", ")} ]`),
  })).object as fc.Arbitrary<string>;
  const outcome = (read: () => { value: unknown; lineOf(p: readonly PropertyKey[]): number | undefined }) => {
    try {
      const doc = read();
      return {
        value: doc.value,
        lines: [[], ["a"], ["a", 0], ["projectId"], ["b", "a"]].map((p) => doc.lineOf(p)),
      };
    } catch (e) {
      return { error: String(e) };
    }
  };
  it("gives the same value, the same refusal and the same lines, on any text", () => {
    const started = performance.now();
    let twice = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          text,
          fc.string({ maxLength: 30 }),
          text.map((t) => t.slice(0, -1)),
        ),
        (t) => {
          const slow = outcome(() => parseWithYaml(t, "f.json"));
          if ("error" in slow && /twice/.test(slow.error)) twice++;
          expect(
            outcome(() => parseDataText(t, "f.json")),
            t,
          ).toEqual(slow);
          let parsed = true;
          try {
            JSON.parse(t);
          } catch {
            parsed = false;
          }
          if (parsed) expect(hasDuplicateKey(t), t).toBe("error" in slow);
        },
      ),
      RUNS,
    );
    expect(twice).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

// Values near each setting's edges, valid more often than not: the fast checks must never accept what zod
// refuses, and what they accept must come out as zod gives it.
const edgeNumber = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -2, max: 2000 }) },
  { weight: 2, arbitrary: fc.integer({ min: -200_000, max: 200_000 }).map((n) => n / 100) },
  { weight: 1, arbitrary: fc.double({ min: -1e13, max: 1e13 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      -0,
      0.001,
      1.005,
      0.1 + 0.2,
      1e-7,
      1e12,
      1e12 + 0.01,
      -1e12,
      366,
      367,
      1_000_000,
      1_000_001,
      1000.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      2 ** 60,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("5", null, undefined, true, [], {}) },
);
/** mostly: a valid value twelve times in thirteen, else an edge (so that whole configs pass too). */
const mostly = <T, U>(valid: fc.Arbitrary<T>, edge: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: edge });
const cents = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((n) => n / 100);
const between = (min: number, max: number) => fc.double({ min, max, noNaN: true });
const edgeWord = (...words: string[]) =>
  mostly(fc.constantFrom(...words), fc.constantFrom("", "P80", " p80", 1, null, undefined));
const edgeBool = mostly(fc.boolean(), fc.constantFrom("true", 0, null, undefined));
const edgeLevels = mostly(
  fc.dictionary(
    mostly(
      fc.constantFrom("min-balance", "monthly-budget", "min-runway-days", "daily-spike"),
      fc.constantFrom("daily-spike ", "bogus"),
    ),
    edgeWord("mandatory", "advisory", "disabled"),
    { maxKeys: 4 },
  ),
  fc.constantFrom(null, [], "mandatory", undefined, JSON.parse('{"__proto__": "mandatory"}')),
);
const budgetRecord = {
  minBalance: mostly(cents(1e6), edgeNumber),
  includeBonuses: edgeBool,
  monthlyBudget: mostly(cents(1e9), edgeNumber),
  forecast: edgeBool,
  minRunwayDays: mostly(between(0, 1e6), edgeNumber),
  spikeFactor: mostly(between(1, 1000), edgeNumber),
  spikeWindowDays: mostly(fc.integer({ min: 3, max: 366 }), edgeNumber),
  trailingDays: mostly(fc.integer({ min: 1, max: 366 }), edgeNumber),
  extraDailyCost: mostly(between(-1e12, 1e12), edgeNumber),
  quantile: edgeWord("p50", "p80", "p90"),
  forecastMethod: edgeWord("model", "trailing-mean"),
  levels: edgeLevels,
};
/** rarely: the key is left out, or (one time in thirteen) there with `a`'s value. */
const rarely = <T>(a: fc.Arbitrary<T>) => fc.option(a, { freq: 13, nil: undefined });
const budgetArb = fc.record({ ...budgetRecord, bogus: rarely(fc.constant(1)) }, { requiredKeys: [] });
const price = mostly(
  fc.oneof(fc.integer({ min: 0, max: 1000 }), between(0, 1e6)),
  fc.constantFrom(-1, -0, -1e-9, Number.NaN, Number.POSITIVE_INFINITY, "1", null, undefined, 1.5),
);
const names = fc.constantFrom("m1.small", "ssd", "", "constructor", "toString", "a.b");
const namesTo = <T>(v: fc.Arbitrary<T>) =>
  mostly(
    fc.dictionary(names, v, { maxKeys: 3 }),
    fc.constantFrom(null, [], "x", JSON.parse('{"__proto__": 1}')),
  );
const onePriceOf = (keys: string[]) =>
  mostly(
    fc.constantFrom(...keys).chain((k) => price.map((p) => ({ [k]: p }))),
    fc.record({ hour: price, month: price, x: fc.constant(1) }, { requiredKeys: [] }),
  );
const cardArb = fc.record(
  {
    $schema: mostly(fc.constant("x"), fc.constant(1)),
    currency: mostly(
      fc.constantFrom("EUR", "₽", "12345678"),
      fc.constantFrom(" EUR", "EUR ", "", "123456789", 5, undefined),
    ),
    flavors: namesTo(fc.oneof(price, onePriceOf(["hour", "month"]))),
    powerStates: namesTo(mostly(between(0, 1), fc.constantFrom(-0.1, 1.01, "1", null, Number.NaN))),
    volumeGbMonth: price,
    volumeTypes: namesTo(price),
    floatingIpHour: price,
    floatingIpMonth: price,
    types: namesTo(
      fc.oneof(
        onePriceOf(["hour", "month"]),
        fc
          .tuple(
            onePriceOf(["perUnitHour", "perUnitMonth", "hour"]),
            mostly(fc.constant("size"), fc.constantFrom("", 1)),
          )
          .map(([p, property]) => ({ ...p, property })),
      ),
    ),
    bogus: rarely(fc.constant(1)),
  },
  { requiredKeys: [] },
);
const projectIdArb = mostly(
  fc.integer({ min: 1, max: 1e6 }),
  fc.constantFrom(0, -1, 1.5, 2 ** 53, "4242", null, undefined),
);
const fileArb = fc
  .record(
    {
      ...budgetRecord,
      $schema: mostly(fc.constant("x"), fc.constant(1)),
      projects: mostly(
        fc.array(
          fc.record(
            {
              projectId: projectIdArb,
              minBalance: budgetRecord.minBalance,
              levels: edgeLevels,
              quantile: budgetRecord.quantile,
              product: rarely(fc.constant("openstack")),
            },
            { requiredKeys: ["projectId"] },
          ),
          { maxLength: 3 },
        ),
        fc.constantFrom(null, "x", [undefined]),
      ),
      product: mostly(fc.constantFrom("openstack", 2), fc.constantFrom(Number.NaN, null, true)),
      rateCard: cardArb,
      currency: mostly(fc.constant("EUR"), fc.constantFrom(" EUR", "", 1)),
      bogus: rarely(fc.constant(1)),
    },
    { requiredKeys: [] },
  )
  // projectId alone (the short form), projects alone, or now and then both (refused)
  .chain((c) =>
    fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12).chain((pick) =>
      projectIdArb.map((projectId) => {
        if (pick === 0) return { ...c, projectId };
        if (pick % 2 === 0) {
          const { projects: _, ...rest } = c;
          return { ...rest, projectId };
        }
        return c;
      }),
    ),
  );

/** agree runs a property and returns how often the fast path took the value, holding time and memory. */
function agree<T>(
  arb: fc.Arbitrary<T>,
  fast: (v: T) => boolean,
  check: (v: T) => void,
  runs: number,
): number {
  const started = performance.now();
  const heap = process.memoryUsage().heapUsed;
  let taken = 0;
  fc.assert(
    fc.property(arb, (v) => {
      if (fast(v)) taken++;
      check(v);
    }),
    { numRuns: runs },
  );
  expect(performance.now() - started).toBeLessThan(30_000);
  expect(process.memoryUsage().heapUsed - heap).toBeLessThan(512 * 2 ** 20);
  return taken;
}

/** sameVerdict: where the schema took the input the parse gave `{ ok: taken }`; where it refused, so did the parse. */
function sameVerdict(schemaTook: boolean, got: { ok: unknown } | { refused: string }, taken: unknown): void {
  if (schemaTook) expect(got).toEqual({ ok: taken });
  else expect(got).toHaveProperty("refused");
}

/** outcome: the value a parse returns, or the ConfigError it throws (anything else fails the test). */
function outcome<T>(parse: () => T): { ok: T } | { refused: string } {
  try {
    return { ok: parse() };
  } catch (e) {
    expect(isConfigError(e), String(e)).toBe(true);
    return { refused: (e as Error).message };
  }
}

describe("the hand-written checks of configs and rate cards agree with their zod schemas", () => {
  it("BUDGET_KEYS are the budget schema's keys, in its order", () => {
    expect([...BUDGET_KEYS]).toEqual(Object.keys(budgetConfigSchema().shape));
  });

  it("parseBudgetConfig gives what the schema gives, with its defaults, and refuses what it refuses", () => {
    const schema = budgetConfigSchema();
    const taken = agree(
      budgetArb,
      (c) => plainObject(c) && budgetSettingsSurelyValid(c, () => false),
      (c) => {
        const slow = schema.safeParse(c);
        const got = outcome(() => parseBudgetConfig(c as never));
        sameVerdict(slow.success, got, slow.data);
      },
      4000,
    );
    expect(taken).toBeGreaterThan(100);
  });

  it("parseRateCard gives what the schema gives and refuses what it refuses", () => {
    const schema = rateCardSchema();
    const taken = agree(
      cardArb,
      (c) => rateCardSurelyValid(c),
      (c) => {
        const slow = schema.safeParse(c);
        const got = outcome(() => parseRateCard(c));
        if (rateCardSurelyValid(c)) expect(slow.success).toBe(true);
        // a "__proto__" name is refused before the schema, which would drop it without a word
        if ("refused" in got && /"__proto__" cannot name a price/.test(got.refused)) return;
        sameVerdict(slow.success, got, slow.data);
      },
      4000,
    );
    expect(taken).toBeGreaterThan(100);
  });

  it("parseCostgateConfig accepts what the file's schema accepts, and nothing else", () => {
    const schema = costgateConfigSchema();
    const taken = agree(
      fileArb,
      configSurelyValid,
      (c) => {
        const slow = schema.safeParse(c);
        if (configSurelyValid(c)) expect(slow.success).toBe(true);
        const got = outcome(() => parseCostgateConfig(c));
        sameVerdict(slow.success, got, c);
      },
      3000,
    );
    expect(taken).toBeGreaterThan(10);
  });
});
