import { describe, expect, it } from "vitest";
import { normalizeDay, parseProjectId } from "../../provider/billing/client";
import { parseAmount, sum, toNumber } from "../../provider/billing/money";
import { parseProduct } from "../../provider/billing/products";

describe("parseAmount", () => {
  it.each([
    [1312.4, "1312.4"],
    ["1312.40", "1312.4"],
    ["1 312,40", "1312.4"],
    ["1,312.40", "1312.4"],
    ["1,312", "1312"],
    ["-5.5", "-5.5"],
    ["1 312,40 ₽", "1312.4"],
    ["RUB 1312.40", "1312.4"],
    ["$12.5", "12.5"],
    [null, "0"],
    ["", "0"],
  ])("%j -> %s", (input, want) => {
    expect(parseAmount(input)?.toString()).toBe(want);
  });

  it.each([["abc"], [{}], [Number.NaN], [true]])("refuses %j", (input) => {
    expect(parseAmount(input)).toBeUndefined();
  });

  it("sums in decimal arithmetic", () => {
    expect(toNumber(sum([parseAmount(0.1)!, parseAmount(0.2)!]))).toBe(0.3);
    expect(toNumber(sum(Array.from({ length: 1000 }, () => parseAmount("0.01")!)))).toBe(10);
  });
});

describe("normalizeDay", () => {
  it.each([
    ["2026-11-01", "2026-11-01"],
    ["2026-11-01T00:00:00.000Z", "2026-11-01"],
    ["2026-11-01T00:00:00+03:00", "2026-11-01"],
    ["2026-11-01 00:00:00", "2026-11-01"],
    [1793491200, "2026-11-01"],
    [1793491200000, "2026-11-01"],
    ["1793491200000", "2026-11-01"],
  ])("%j -> %s", (input, want) => {
    expect(normalizeDay(input)).toBe(want);
  });
  it.each([["2026-02-30"], ["soon"], [null]])("refuses %j", (input) => {
    expect(normalizeDay(input)).toBeUndefined();
  });
});

describe("parseProduct and parseProjectId", () => {
  it.each([
    [1, 1],
    ["2", 2],
    ["openstack", 1],
    ["Object-Storage", 2],
    ["vmware", 3],
  ])("%j -> %d", (input, want) => {
    expect(parseProduct(input)).toBe(want);
  });
  it.each([[0], [4], ["aws"], [undefined]])("refuses product %j naming the accepted forms", (input) => {
    expect(() => parseProduct(input)).toThrowError(/^product: .*use 1 or openstack/);
  });
  it.each([[0], [-1], [1.5], ["12a"], [undefined], [Number.MAX_SAFE_INTEGER + 2]])(
    "refuses project id %j",
    (input) => {
      expect(() => parseProjectId(input)).toThrowError(/^projectId: .*positive integer/);
    },
  );
  it("takes a string of digits", () => {
    expect(parseProjectId(" 4242 ")).toBe(4242);
  });
});
