/**
 * The fast path of readAmount (provider/money.ts): plain decimal text and numbers are read without the
 * normalizing regexes and checks, and must give what the full path gives: the same big.js value (sign,
 * exponent and digits) as the same amount written with spaces and a currency sign, and the same refusals
 * at the bounds.
 */
import Big = require("big.js");

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAmount } from "../../provider/money";

const shape = (b: Big) => ({ s: b.s, e: b.e, c: [...b.c] });
const read = (v: unknown) => {
  const r = readAmount(v);
  return r.ok ? { ok: true, ...shape(r.value) } : r;
};

const plain = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^\d{1,13}$/),
    fc.option(fc.stringMatching(/^\d{1,22}$/), { nil: undefined }),
  )
  .map(([neg, int, frac]) => `${neg ? "-" : ""}${int}${frac === undefined ? "" : `.${frac}`}`);

describe("readAmount's fast path reads what the full path reads", () => {
  it("plain text: the same value or refusal as the same text with spaces and a currency sign", () => {
    const started = performance.now();
    fc.assert(
      fc.property(plain, (t) => {
        const slow = read(` ₽${t.replace(/^(-?\d)/, "$1 ")} `);
        expect(read(t)).toEqual(slow);
        // an exponent takes readText past its own fast path: the checks and big.js read it in full
        expect(read(t)).toEqual(read(`${t}e0`));
      }),
      { numRuns: 3000 },
    );
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("numbers: the same value as their text, zero as big.js's 0", () => {
    fc.assert(
      fc.property(fc.double({ min: -2e12, max: 2e12, noNaN: true }), (x) => {
        const r = read(x);
        if (Math.abs(x) > 1e12) expect(r.ok).toBe(false);
        else if (x === 0) expect(r).toEqual({ ok: true, ...shape(new Big(0)) });
        else if (r.ok) expect(r).toEqual({ ok: true, ...shape(new Big(String(x))) });
        expect(read(String(x))).toEqual(r);
      }),
      { numRuns: 3000 },
    );
  });

  it("the bounds hold on plain text", () => {
    expect(read("999999999999.99")).toMatchObject({ ok: true });
    expect(read("1000000000000")).toMatchObject({ ok: true });
    expect(read("1000000000000.01")).toMatchObject({ ok: false });
    expect(read("-1000000000001")).toMatchObject({ ok: false });
    expect(read(`1.${"1".repeat(20)}`)).toMatchObject({ ok: true });
    expect(read(`1.${"1".repeat(21)}`)).toMatchObject({ ok: false });
    expect(read("-0.00")).toEqual({ ok: true, ...shape(new Big(0)) });
    expect(read("0007.50")).toEqual({ ok: true, ...shape(new Big("7.5")) });
  });
});
