// A preload (`node --require`) that moves the wall clock by a fixed offset, so a test run reads "today" as
// another day: `scripts/calendar.js` puts it in NODE_OPTIONS with COSTGATE_CLOCK_OFFSET_MS, and every node
// process of the run — vitest, its workers, the CLI, emulator and policy-pack children — loads it and shares
// the one offset (computed once by the runner, so the shifted clock runs on across processes).
//
// Only `Date.now()`, `new Date()` and `Date()` (no argument) move. Timers stay real: performance.now,
// process.hrtime, setTimeout/setInterval and the kernel's clocks are untouched (libfaketime moved those
// too and broke undici's timeouts in child processes). Processes that are not node (python Keystone,
// Chromium, openssl) keep the real date. Test tooling only: never in the package (`files` has no test/).
"use strict";

const offset = Number(process.env.COSTGATE_CLOCK_OFFSET_MS ?? "");
const MARK = Symbol.for("costgate.shiftedClock");

if (Number.isFinite(offset) && offset !== 0 && !globalThis.Date[MARK]) {
  const RealDate = globalThis.Date;
  const realNow = RealDate.now;
  const now = () => realNow() + offset;

  // A function, not a class: `Date()` without `new` must still answer (a string of now).
  const ShiftedDate = function (...args) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  };
  Object.setPrototypeOf(ShiftedDate, RealDate); // Date.UTC, Date.parse
  Object.defineProperty(ShiftedDate, "prototype", { value: RealDate.prototype, writable: false });
  Object.defineProperty(ShiftedDate, "now", { value: now, writable: true, configurable: true });
  Object.defineProperty(ShiftedDate, "name", { value: "Date" });
  Object.defineProperty(ShiftedDate, "length", { value: 7 });
  Object.defineProperty(ShiftedDate, MARK, { value: { offset, RealDate } });
  Object.defineProperty(RealDate.prototype, "constructor", {
    value: ShiftedDate,
    writable: true,
    configurable: true,
  });
  globalThis.Date = ShiftedDate;

  // Children started with an env of their own (runCli passes PATH and a few names only) get the clock too.
  const childProcess = require("node:child_process");
  const { promisify } = require("node:util");
  const preload = `--require ${JSON.stringify(__filename)}`;
  const withClock = (env) => {
    const opts = env.NODE_OPTIONS ?? "";
    return {
      ...env,
      COSTGATE_CLOCK_OFFSET_MS: String(offset),
      NODE_OPTIONS: opts.includes(__filename) ? opts : `${preload} ${opts}`.trim(),
    };
  };
  for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
    const real = childProcess[name];
    const rewrite = (args) => {
      const i = args.findIndex((a) => a && typeof a === "object" && !Array.isArray(a) && a.env);
      if (i >= 0) args[i] = { ...args[i], env: withClock(args[i].env) };
      return args;
    };
    const wrapped = function (...args) {
      return real.apply(this, rewrite(args));
    };
    const custom = real[promisify.custom]; // promisify(execFile) and promisify(exec) use the real one
    if (custom) wrapped[promisify.custom] = (...args) => custom(...rewrite(args));
    childProcess[name] = wrapped;
  }
  require("node:module").syncBuiltinESMExports(); // `import { execFile } from "node:child_process"` too
}
