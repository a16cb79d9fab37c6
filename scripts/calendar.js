// Runs tests "as of" other days: the wall clock of every node process of the run (vitest, its workers, the
// CLI, emulator and policy-pack children) is moved by one offset through test/helpers/shifted-clock.cjs;
// timers stay real. `npm run test:calendar` runs the fast date-reading tests at a few days chosen for their
// edges; give days and vitest arguments to run more:
//
//   node scripts/calendar.js                                    # the default days, the default tests
//   node scripts/calendar.js --days 2027-02-28,2027-03-01 -- test/cli test/policies
//   node scripts/calendar.js --days today,2027-01-01 --time 23:50 -- --config vitest.unit.config.mts
//
// A day is `YYYY-MM-DD` (the clock reads that day at --time, 12:00 UTC unless told) or `today` (no shift, a
// control). Suites that need the real Keystone skip: it is python and keeps the real clock, and a token
// it issues would read as long expired (or not yet valid) on a moved one. A log per day goes to --logs.

const { spawnSync } = require("node:child_process");
const { closeSync, mkdirSync, openSync, readFileSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const PRELOAD = path.join(root, "test", "helpers", "shifted-clock.cjs");
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A year's end, a month's 1st (yesterday in the month before) and 2nd, February's end, a 31st, mid-month. */
const DEFAULT_DAYS = ["2026-12-31", "2027-01-01", "2027-03-01", "2027-06-15"];
/**
 * The fast tests that read the date (about 40 s a day): the budget rules and reports over "today", and the
 * end-to-end ones whose emulator data and expectations are built from it — the ones a calendar broke before.
 */
const DEFAULT_TESTS = [
  ...["average", "daily-spike", "engine", "forecast", "min-runway-days", "monthly-budget", "reasons"].map(
    (f) => `test/budget/${f}.test.ts`,
  ),
  ...["cli", "html", "markdown-json", "model", "reasons", "terminal"].map((f) => `test/report/${f}.test.ts`),
  ...["as-of", "billing", "check"].map((f) => `test/cli/${f}.test.ts`),
  "test/policies/budget-pack.test.ts",
  "test/examples/ci.test.ts",
];

const CHILD_CLOCK = `process.stdout.write(require("node:child_process").execFileSync(process.execPath, ["-p", "new Date().toISOString()"], { env: { PATH: process.env.PATH } }))`;

function usage(msg) {
  if (msg) process.stderr.write(`calendar: ${msg}\n`);
  process.stderr.write(
    "usage: node scripts/calendar.js [--days D1,D2,...] [--time HH:MM] [--logs DIR] [-- vitest args]\n",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const o = { days: DEFAULT_DAYS, time: "12:00", logs: path.join(root, ".calendar-logs"), vitest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      o.vitest = argv.slice(i + 1);
      break;
    }
    const v = argv[i + 1];
    if (a === "--days" && v) o.days = v.split(",").filter(Boolean);
    else if (a === "--time" && v) o.time = v;
    else if (a === "--logs" && v) o.logs = path.resolve(v);
    else usage(`unknown or incomplete argument ${JSON.stringify(a)}`);
    i++;
  }
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(o.time)) usage(`--time ${JSON.stringify(o.time)}: give HH:MM (UTC)`);
  for (const d of o.days) {
    if (d !== "today" && (!DAY_RE.test(d) || Number.isNaN(Date.parse(`${d}T${o.time}:00Z`)))) {
      usage(`--days ${JSON.stringify(d)}: give a day as YYYY-MM-DD or today`);
    }
  }
  if (o.vitest.length === 0) o.vitest = DEFAULT_TESTS;
  return o;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colors its output even into a file
const ANSI = /\u001b\[[0-9;]*m/g;
/** plain drops the colors from vitest's output. */
const plain = (text) => text.replace(ANSI, "");

/** The last line of vitest's summary that counts tests ("Tests  2 failed | 310 passed (312)"). */
function summary(out) {
  const line = plain(out)
    .split("\n")
    .find((l) => /^\s*Tests\s+\d/.test(l));
  return line ? line.trim().replace(/\s+/g, " ") : "no summary (see the log)";
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  mkdirSync(o.logs, { recursive: true });
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  const rows = [];
  for (const day of o.days) {
    const env = { ...process.env };
    delete env.COSTGATE_CLOCK_OFFSET_MS;
    if (day !== "today") {
      const offset = Date.parse(`${day}T${o.time}:00Z`) - Date.now();
      env.COSTGATE_CLOCK_OFFSET_MS = String(offset);
      env.NODE_OPTIONS = `--require ${JSON.stringify(PRELOAD)} ${env.NODE_OPTIONS ?? ""}`.trim();
    }
    // the clock a child process reads, through an env of its own as runCli gives (the preload passes it on)
    const seen = spawnSync(process.execPath, ["-e", CHILD_CLOCK], { env, encoding: "utf8" }).stdout.trim();
    if (day !== "today" && !seen.startsWith(`${day}T`)) {
      process.stderr.write(
        `calendar: the clock did not move to ${day}: a grandchild read ${seen || "nothing"}\n`,
      );
      process.exit(1);
    }
    process.stderr.write(
      `calendar: ${day} (a child process reads ${seen}): vitest run ${o.vitest.join(" ")}\n`,
    );
    const t0 = Date.now();
    const log = path.join(o.logs, `${day}.log`);
    const fd = openSync(log, "w"); // written as it runs: `tail -f` it
    const r = spawnSync(process.execPath, [vitest, "run", ...o.vitest], {
      cwd: root,
      env,
      stdio: ["ignore", fd, fd],
    });
    closeSync(fd);
    const secs = (Date.now() - t0) / 1000;
    const out = readFileSync(log, "utf8");
    const failed = plain(out)
      .split("\n")
      .filter((l) => /^\s*FAIL\s/.test(l))
      .map((l) => `    ${l.trim()}`);
    rows.push({ day, code: r.status ?? 1, secs, summary: summary(out), failed, log });
    process.stderr.write(
      `calendar: ${day}: exit ${r.status ?? r.signal}, ${secs.toFixed(0)} s, ${summary(out)}\n`,
    );
  }
  process.stdout.write("\ncalendar: day         exit  time   tests\n");
  for (const r of rows) {
    process.stdout.write(
      `calendar: ${r.day.padEnd(11)} ${String(r.code).padStart(4)} ${r.secs.toFixed(0).padStart(4)} s  ${r.summary}\n`,
    );
    if (r.code !== 0)
      process.stdout.write(`${[...new Set(r.failed)].slice(0, 20).join("\n")}\n    log: ${r.log}\n`);
  }
  process.exit(rows.every((r) => r.code === 0) ? 0 : 1);
}

main();
