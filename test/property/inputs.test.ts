/**
 * Properties of the input validators: whatever they accept comes out in the one format the
 * endpoint takes; whatever they refuse throws a ConfigError naming the field — nothing else.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeDay, parseProjectId } from "../../provider/billing/client";
import { parseAmount } from "../../provider/billing/money";
import {
  addDays,
  daysBetween,
  isoDay,
  parseBound,
  parsePeriod,
  splitPeriod,
} from "../../provider/billing/periods";
import { PRODUCTS, parseProduct } from "../../provider/billing/products";
import { isConfigError } from "../../provider/errors";

// PROPERTY_RUNS=2000 for a longer hunt; the suite keeps runs bounded.
const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 100) };
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Runs `fn`: returns its value, or checks it threw a ConfigError naming `field` and returns undefined. */
function acceptedOrRefused<T>(fn: () => T, field: string | RegExp): T | undefined {
  try {
    return fn();
  } catch (e) {
    expect(isConfigError(e), String(e)).toBe(true);
    const named = (e as { field: string }).field;
    if (typeof field === "string") expect(named).toBe(field);
    else expect(named).toMatch(field);
    expect((e as Error).message.startsWith(`${named}: `)).toBe(true);
    return undefined;
  }
}

// Days from 2000 on (earlier years are refused as typos): epoch milliseconds from then are above 1e11,
// so they cannot pass for seconds.
const dates = fc.date({
  min: new Date("2000-01-01T00:00:00Z"),
  max: new Date("2099-12-31T23:59:59.999Z"),
  noInvalidDate: true,
});
const days = dates.map(isoDay);

describe("parseProjectId", () => {
  it("accepts positive safe integers as numbers and digit strings, refuses the rest naming the field", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(parseProjectId(n)).toBe(n);
        expect(parseProjectId(String(n))).toBe(n);
        expect(parseProjectId(` ${n}\n`)).toBe(n);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const id = acceptedOrRefused(() => parseProjectId(v, "projectIds[0]"), "projectIds[0]");
        if (id !== undefined) expect(Number.isSafeInteger(id) && id > 0).toBe(true);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true })), (n) => {
        expect(acceptedOrRefused(() => parseProjectId(n), "projectId")).toBeUndefined();
      }),
      RUNS,
    );
  });
});

describe("parseProduct", () => {
  it("maps ids and names in any case and spacing to 1, 2 or 3", () => {
    const names = Object.keys(PRODUCTS) as (keyof typeof PRODUCTS)[];
    fc.assert(
      fc.property(fc.mixedCase(fc.constantFrom(...names)), fc.constantFrom("", " ", "\t"), (mixed, pad) => {
        const id = PRODUCTS[mixed.toLowerCase() as keyof typeof PRODUCTS];
        expect(parseProduct(`${pad}${mixed}${pad}`)).toBe(id);
        expect(parseProduct(id)).toBe(id);
        expect(parseProduct(`${pad}${id}`)).toBe(id);
      }),
      RUNS,
    );
  });

  it("refuses anything else with a ConfigError naming the field", () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const id = acceptedOrRefused(() => parseProduct(v), "product");
        if (id !== undefined) expect([1, 2, 3]).toContain(id);
      }),
      RUNS,
    );
  });
});

describe("periods", () => {
  it("reads a date as its whole UTC day and a timestamp as its instant", () => {
    fc.assert(
      fc.property(dates, (d) => {
        const day = isoDay(d);
        expect(parseBound(day, "from")).toEqual({ at: new Date(`${day}T00:00:00.000Z`), dateOnly: true });
        expect(parseBound(d.toISOString(), "to")).toEqual({ at: d, dateOnly: false });
        expect(parseBound(d, "from").at.getTime()).toBe(d.getTime());
      }),
      RUNS,
    );
  });

  it("accepts exactly the real calendar dates among YYYY-MM-DD strings", () => {
    const part = (min: number, max: number, width: number) =>
      fc.integer({ min, max }).map((n) => String(n).padStart(width, "0"));
    // Years before 2000 are refused as typos (0026 for 2026): real dates from 2000 on are accepted.
    fc.assert(
      fc.property(part(100, 9999, 4), part(0, 19, 2), part(0, 39, 2), (y, m, d) => {
        const t = new Date(0);
        t.setUTCFullYear(Number(y), Number(m) - 1, Number(d));
        const real =
          Number(y) >= 2000 &&
          t.getUTCFullYear() === Number(y) &&
          t.getUTCMonth() === Number(m) - 1 &&
          t.getUTCDate() === Number(d);
        const b = acceptedOrRefused(() => parseBound(`${y}-${m}-${d}`, "from"), "from");
        expect(b !== undefined).toBe(real);
      }),
      { numRuns: 300 },
    );
  });

  it("formats every accepted period as the endpoint's instants, and refuses a reversed one naming the bound at fault", () => {
    const now = new Date("2026-11-24T12:00:00Z");
    fc.assert(
      fc.property(days, days, fc.boolean(), (a, b, asTimestamps) => {
        const [from, to] = asTimestamps ? [`${a}T06:00:00Z`, `${b}T18:30:00+02:00`] : [a, b];
        const maxPeriodDays = 50_000;
        // a start after the end is the start's fault when it is in the future, the end's otherwise
        const atFault = a > b && `${a}T06:00:00Z` <= now.toISOString() ? "to" : "from";
        const p = acceptedOrRefused(() => parsePeriod(from, to, { maxPeriodDays, now }), atFault);
        // refused exactly when the first day comes after the second (06:00Z is before 16:30Z)
        expect(p === undefined).toBe(a > b);
        if (!p) return;
        expect(p.periodFrom).toMatch(INSTANT);
        expect(p.periodTo).toMatch(INSTANT);
        expect(p.fromDay <= p.toDay).toBe(true);
        if (!asTimestamps) expect(p.periodTo).toBe(`${b}T23:59:59.999Z`);
      }),
      RUNS,
    );
  });

  it("refuses arbitrary text and values with a ConfigError naming the bound", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), fc.constantFrom("from", "to"), (v, field) => {
        const b = acceptedOrRefused(() => parseBound(v, field), field);
        if (b) expect(Number.isNaN(b.at.getTime())).toBe(false);
      }),
      RUNS,
    );
  });

  it("splits a period into windows that cover every day once", () => {
    fc.assert(
      fc.property(
        days,
        fc.integer({ min: 0, max: 1200 }),
        fc.integer({ min: 1, max: 400 }),
        (start, span, windowDays) => {
          const p = parsePeriod(start, addDays(start, span), { maxPeriodDays: 5000 });
          const ws = splitPeriod(p, windowDays);
          expect(ws[0]?.periodFrom).toBe(p.periodFrom);
          expect(ws.at(-1)?.periodTo).toBe(p.periodTo);
          let next = p.fromDay;
          for (const w of ws) {
            expect(w.fromDay).toBe(next);
            expect(daysBetween(w.fromDay, w.toDay)).toBeGreaterThanOrEqual(1);
            expect(daysBetween(w.fromDay, w.toDay)).toBeLessThanOrEqual(windowDays);
            expect(w.periodFrom).toMatch(INSTANT);
            expect(w.periodTo).toMatch(INSTANT);
            next = addDays(w.toDay, 1);
          }
          expect(next).toBe(addDays(p.toDay, 1));
        },
      ),
      RUNS,
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true })), (w) => {
        expect(
          acceptedOrRefused(() => splitPeriod(parsePeriod("2026-01-01", "2026-02-01"), w), "windowDays"),
        ).toBeUndefined();
      }),
      RUNS,
    );
  });
});

describe("normalizeDay and parseAmount", () => {
  it("read a day the same as a date, a timestamp, epoch seconds or milliseconds", () => {
    fc.assert(
      fc.property(days, (day) => {
        const ms = Date.parse(`${day}T00:00:00.000Z`);
        const forms = [
          day,
          `${day}T00:00:00.000Z`,
          `${day}T00:00:00+05:00`,
          ms,
          ms / 1000,
          String(ms / 1000),
        ];
        for (const f of forms) expect(normalizeDay(f)).toBe(day);
      }),
      RUNS,
    );
  });

  it("read an amount the same as a number or a numeric string", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        const n = cents / 100;
        const a = parseAmount(n)?.toString();
        expect(parseAmount((cents / 100).toFixed(2))?.toString()).toBe(a);
        expect(parseAmount(` ${String(n)} `)?.toString()).toBe(a);
      }),
      RUNS,
    );
  });
});
