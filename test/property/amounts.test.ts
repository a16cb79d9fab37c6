/**
 * Properties of the amount and day readers over hostile text: each answer comes in bounded time and
 * heap, what is accepted is within ±1e12 and 20 decimals, and what is within the bounds is read exactly.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeDay } from "../../provider/billing/client";
import {
  MAX_AMOUNT,
  MAX_AMOUNT_DECIMALS,
  parseAmount,
  quoteWire,
  readAmount,
} from "../../provider/billing/money";

// PROPERTY_RUNS=5000 for a longer hunt; the suite keeps runs bounded.
const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 500) };

/** Number-like text as a hostile endpoint may write it: huge exponents, long digit runs, signs, junk. */
const numberish = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc
    .tuple(
      fc.constantFrom("", "-", "+"),
      fc.stringMatching(/^\d{0,30}$/),
      fc.option(fc.stringMatching(/^\d{0,30}$/), { nil: undefined }),
      fc.option(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), { nil: undefined }),
    )
    .map(([s, i, f, e]) => `${s}${i}${f === undefined ? "" : `.${f}`}${e === undefined ? "" : `e${e}`}`),
  fc.constantFrom(
    "1e300000000",
    "-1e300000000",
    "1e-300000000",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    "1_0",
  ),
  fc.integer({ min: 10, max: 200_000 }).map((n) => "9".repeat(n)),
  fc.double(),
);

/** Runs `f` and checks it took under `ms` and grew the heap by under 16 MB. */
function bounded<T>(f: () => T, ms = 50): T {
  const heap = process.memoryUsage().heapUsed;
  const started = performance.now();
  const out = f();
  expect(performance.now() - started).toBeLessThan(ms);
  expect(process.memoryUsage().heapUsed - heap).toBeLessThan(16 * 1024 * 1024);
  return out;
}

describe("readAmount", () => {
  it("answers in bounded time and memory, and accepts only amounts within ±1e12 and 20 decimals", () => {
    fc.assert(
      fc.property(numberish, (value) => {
        const r = bounded(() => readAmount(value));
        if (!r.ok) {
          expect(r.reason.length).toBeLessThan(80);
          return;
        }
        expect(r.value.abs().lte(MAX_AMOUNT)).toBe(true);
        // at most 20 decimals: times 10^20 is whole
        expect(r.value.times(`1e${MAX_AMOUNT_DECIMALS}`).mod(1).eq(0)).toBe(true);
        expect(Number.isFinite(r.value.toNumber())).toBe(true);
      }),
      RUNS,
    );
  });

  it("reads every decimal within the bounds exactly, as text and as a number", () => {
    const within = fc
      .tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 2 }))
      .map(([units, scale]) => {
        const s = units
          .toString()
          .replace("-", "")
          .padStart(scale + 1, "0");
        const text = scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`;
        return units < 0n ? `-${text}` : text;
      });
    fc.assert(
      fc.property(within, (text) => {
        expect(parseAmount(text)?.toString()).toBe(String(Number(text)));
        expect(parseAmount(Number(text))?.eq(text)).toBe(true);
      }),
      RUNS,
    );
  });

  it("quotes any value in at most a few dozen characters, without control characters", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 100_000 }), fc.anything()), (value) => {
        const q = bounded(() => quoteWire(value));
        expect(q.length).toBeLessThan(120);
        expect(q).not.toMatch(/[\p{Cc}\p{Cf}]/u);
      }),
      RUNS,
    );
  });
});

describe("normalizeDay", () => {
  it("answers in bounded time and memory, and only ever YYYY-MM-DD", () => {
    const dayish = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.integer({ min: 10, max: 200_000 }).map((n) => "2".repeat(n)),
      fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? "Invalid" : d.toISOString())),
      fc.double(),
      fc.anything(),
    );
    fc.assert(
      fc.property(dayish, (value) => {
        const day = bounded(() => normalizeDay(value));
        if (day !== undefined) expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }),
      RUNS,
    );
  });
});
