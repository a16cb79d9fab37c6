/**
 * examples/ci's monthly budget is meant for a project that can afford it (test/examples/ci.test.ts runs the
 * workflow for the demo project on today's date): here, the same check on every day of a year, each with the
 * emulator's clock pinned to it, so that a budget too near the demo's p80 fails today, not on the wrong day.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { parse } from "yaml";
import { startEmulator } from "../../emulator";
import { checkProject } from "../../provider/check";

const EXAMPLE = join(resolve(__dirname, "../.."), "examples/ci");

it("can afford it on any day: the budget covers the demo project's p80 month end on every day of 2027", async () => {
  // ci.test.ts runs the check on today's date; the p80 swings with the calendar (up to ~1.5× p50 on the 12th–19th,
  // when the project's one-off day, 13 days back, falls in the month's first days): 60,000 failed there
  const { monthlyBudget } = parse(readFileSync(join(EXAMPLE, "costgate.yaml"), "utf8")) as {
    monthlyBudget: number;
  };
  let worst = { day: "", p50: 0, p80: 0 };
  for (let t = Date.UTC(2027, 0, 1, 12); t < Date.UTC(2028, 0, 1); t += 86_400_000) {
    const now = new Date(t);
    const pinned = await startEmulator({ port: 0, now: () => now });
    try {
      const { evaluation } = await checkProject(
        { baseUrl: pinned.billingUrl, token: pinned.seed.billing.token },
        { projectId: 4242, now, config: { monthlyBudget } },
      );
      const m = evaluation.figures.forecast.monthEnd;
      if (m.p80 > worst.p80) worst = { day: now.toISOString().slice(0, 10), p50: m.p50, p80: m.p80 };
    } finally {
      await pinned.close();
    }
  }
  expect(worst.p80, JSON.stringify(worst)).toBeGreaterThan(0);
  expect(worst.p80, JSON.stringify(worst)).toBeLessThan(monthlyBudget);
}, 120_000);
