/**
 * Properties of the billing client over arbitrary answers from a real HTTP server on 127.0.0.1:
 * it throws nothing but its own typed errors, and whatever it accepts it normalizes the same way
 * (numbers or numeric strings, any order, dates or timestamps or epoch seconds, a list or {items}).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillingEndpoint, getBalance, getConsumption } from "../../provider/billing/client";
import { isCostgateError } from "../../provider/errors";

interface Canned {
  status: number;
  body: string;
  contentType?: string;
}

let server: Server;
let next: Canned = { status: 200, body: "{}" };
let ep: BillingEndpoint;
// PROPERTY_RUNS=2000 for a longer hunt; the suite keeps runs bounded.
const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 100) };
const NOW = () => new Date("2026-06-01T00:00:00Z");

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const headers: Record<string, string> = {};
      if (next.contentType) headers["content-type"] = next.contentType;
      res.writeHead(next.status, headers);
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  ep = {
    baseUrl: `http://127.0.0.1:${port}`,
    token: "property-token",
    transport: {
      retry: false,
      timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000, totalMs: 2_000 },
    },
  };
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Calls both queries against the canned answer; a thrown error must be costgate's own. */
async function onlyTypedErrors(canned: Canned): Promise<void> {
  next = canned;
  for (const call of [
    () => getBalance(ep, { projectId: 4242 }, NOW),
    () => getConsumption(ep, { projectId: 4242, from: "2026-01-01", to: "2026-01-31" }, NOW),
  ]) {
    try {
      await call();
    } catch (e) {
      if (!isCostgateError(e)) throw new Error(`not a CostgateError: ${String(e)}`, { cause: e });
      expect(e.message).not.toMatch(/Unexpected token|Cannot read prop|is not a function/);
    }
  }
}

describe("arbitrary answers", () => {
  it("any status with any text: only costgate's typed errors", async () => {
    const contentTypes = fc.constantFrom(undefined, "application/json", "text/html", "text/plain");
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 599 }),
        fc.string({ maxLength: 200 }),
        contentTypes,
        (status, body, contentType) => onlyTypedErrors({ status, body, contentType }),
      ),
      RUNS,
    );
  });

  it("any JSON value as a 200 body: only costgate's typed errors", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), (value) =>
        onlyTypedErrors({ status: 200, body: JSON.stringify(value), contentType: "application/json" }),
      ),
      RUNS,
    );
  });

  it("GraphQL-shaped answers with arbitrary fields: typed errors, or items that are days and numbers", async () => {
    const field = fc.oneof(
      fc.constant(null),
      fc.double(),
      fc.string({ maxLength: 12 }),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.integer({ min: -1e6, max: 1e6 }).map((n) => (n / 100).toFixed(2)),
    );
    const item = fc.record({ day: field, totalAmount: field, totalBonuses: field }, { requiredKeys: [] });
    const answer = fc.oneof(
      fc.record({
        data: fc.record({
          bill: fc.record({
            reportSubscriptionConsuming: fc.record({ items: fc.array(item, { maxLength: 8 }) }),
          }),
        }),
      }),
      fc.record({
        data: fc.record({
          bill: fc.record({ getSubscriptionBalance: fc.record({ balance: field, bonuses: field }) }),
        }),
      }),
      fc.record({
        errors: fc.array(fc.record({ message: fc.string({ maxLength: 40 }) }), { maxLength: 3 }),
        data: fc.constant(null),
      }),
    );
    await fc.assert(
      fc.asyncProperty(answer, async (a) => {
        await onlyTypedErrors({ status: 200, body: JSON.stringify(a), contentType: "application/json" });
        try {
          const u = await getConsumption(ep, { projectId: 4242, from: "2026-01-01", to: "2026-01-31" }, NOW);
          const seen = u.items.map((i) => i.day);
          expect([...seen].sort()).toEqual(seen);
          expect(new Set(seen).size).toBe(seen.length);
          for (const i of u.items) {
            expect(i.day).toMatch(/^2026-01-\d\d$/);
            expect(Number.isFinite(i.totalAmount) && Number.isFinite(i.totalBonuses)).toBe(true);
          }
        } catch (e) {
          expect(isCostgateError(e)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

describe("one answer in many forms", () => {
  const january = Array.from({ length: 31 }, (_, i) => `2026-01-${String(i + 1).padStart(2, "0")}`);
  const charges = fc.uniqueArray(
    fc.record({
      day: fc.constantFrom(...january),
      cents: fc.integer({ min: 0, max: 10_000_000 }),
      bonusCents: fc.integer({ min: 0, max: 100_000 }),
    }),
    { selector: (c) => c.day, maxLength: 31 },
  );

  type Charge = { day: string; cents: number; bonusCents: number };
  const forms: Record<string, (cs: Charge[], seed: number) => unknown> = {
    numbers: (cs) =>
      cs.map((c) => ({ day: c.day, totalAmount: c.cents / 100, totalBonuses: c.bonusCents / 100 })),
    strings: (cs) =>
      cs.map((c) => ({
        day: c.day,
        totalAmount: (c.cents / 100).toFixed(2),
        totalBonuses: (c.bonusCents / 100).toFixed(2),
      })),
    timestamps: (cs) =>
      cs.map((c) => ({
        day: `${c.day}T00:00:00.000Z`,
        totalAmount: c.cents / 100,
        totalBonuses: c.bonusCents / 100,
      })),
    epochSeconds: (cs) =>
      cs.map((c) => ({
        day: Date.parse(`${c.day}T00:00:00Z`) / 1000,
        totalAmount: c.cents / 100,
        totalBonuses: c.bonusCents / 100,
      })),
    shuffled: (cs, seed) =>
      cs
        .map((c, i) => ({ c, k: (i * 7919 + seed) % 104729 }))
        .sort((a, b) => a.k - b.k)
        .map(({ c }) => ({
          day: c.day,
          totalAmount: String(c.cents / 100),
          totalBonuses: c.bonusCents / 100,
        })),
  };

  it("numbers, numeric strings, timestamps, epoch seconds and any order give identical results", async () => {
    await fc.assert(
      fc.asyncProperty(charges, fc.nat(), fc.boolean(), async (cs, seed, bare) => {
        const results = [];
        for (const [name, render] of Object.entries(forms)) {
          const items = render(cs, seed);
          const report = bare ? items : { items };
          next = {
            status: 200,
            contentType: "application/json",
            body: JSON.stringify({ data: { bill: { reportSubscriptionConsuming: report } } }),
          };
          const u = await getConsumption(ep, { projectId: 4242, from: "2026-01-01", to: "2026-01-31" }, NOW);
          results.push([name, u] as const);
        }
        const [, first] = results[0]!;
        for (const [name, u] of results) expect({ name, u }).toEqual({ name, u: first });
        expect(first.items.map((i) => i.day)).toEqual(cs.map((c) => c.day).sort());
        expect(Math.round(first.total.amount * 100)).toBe(cs.reduce((s, c) => s + c.cents, 0));
      }),
      { numRuns: 60 },
    );
  });
});
