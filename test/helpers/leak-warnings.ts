/**
 * Vitest setup: a test that leaves listeners behind until Node warns (MaxListenersExceededWarning)
 * fails, instead of the warning scrolling by in the suite's output. Registered once per process.
 */
import { afterAll, afterEach, expect } from "vitest";

const KEY = Symbol.for("costgate.test.leakWarnings");
const store = globalThis as { [KEY]?: string[] };
if (!store[KEY]) {
  const seen: string[] = [];
  store[KEY] = seen;
  process.on("warning", (w) => {
    if (w.name === "MaxListenersExceededWarning") seen.push(w.message);
  });
}
const seen = store[KEY];

function check() {
  // the warning is emitted on the next tick; a leak found after a test is laid at the next one
  expect(seen.splice(0), "a listener leak (MaxListenersExceededWarning)").toEqual([]);
}
afterEach(check);
afterAll(async () => {
  await new Promise((resolve) => setImmediate(resolve));
  check();
});
