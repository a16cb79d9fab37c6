/**
 * Names from users and previews never reach Object.prototype: a flavor `constructor`, a volume type
 * `__proto__`, a type `toString` are unpriced with the reason, never priced 0 and never an internal
 * error; an absurd size is unpriced too. Through the library, the pack's pricing and `costgate cost`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { priceResource } from "../../policies/budget/cost";
import { DEFAULT_VARIABLE_TYPES, expectedTypes } from "../../provider/billing/documents";
import { parseProduct } from "../../provider/billing/products";
import { isConfigError } from "../../provider/errors";
import { INSTANCE, priceMonthly, VOLUME } from "../../provider/pricing/price";
import { parseRateCard } from "../../provider/pricing/rate-card";
import { runCli } from "../helpers/cli";

const PROTO_NAMES = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf"];
const card = parseRateCard({
  currency: "EUR",
  flavors: { "m1.small": 0.05 },
  volumeTypes: { ssd: 0.2 },
  powerStates: { paused: 0.5 },
  types: { "openstack:networking/network:Network": { month: 0 } },
});
const noDefaultVolume = card;
const withDefaultVolume = parseRateCard({ ...card, volumeGbMonth: 0.1 });

describe("pricing looks names up by own property only", () => {
  it.each(PROTO_NAMES)("flavor %s is unpriced with the reason", (name) => {
    // as a preview's JSON carries it: JSON.parse makes __proto__ an own property
    const inputs = JSON.parse(JSON.stringify({ flavorName: name }));
    expect(priceMonthly(INSTANCE, inputs, card)).toEqual({
      kind: "unpriced",
      reason: `the rate card has no price for flavor ${name}`,
    });
    expect(priceResource({ type: INSTANCE, props: inputs }, card)).toEqual({
      reason: `the rate card has no price for flavor ${name}`,
    });
  });

  it.each(PROTO_NAMES)("volume type %s: the card's default per GB, else unpriced, never an error", (name) => {
    const inputs = JSON.parse(`{"size": 10, "volumeType": ${JSON.stringify(name)}}`);
    expect(priceMonthly(VOLUME, inputs, noDefaultVolume)).toEqual({
      kind: "unpriced",
      reason: `the rate card has no price for volume type ${name} (volumeTypes) and no volumeGbMonth`,
    });
    expect(priceMonthly(VOLUME, inputs, withDefaultVolume)).toMatchObject({ kind: "priced", monthly: 1 });
  });

  it.each(PROTO_NAMES)("type %s is not a type the card prices", (name) => {
    expect(priceMonthly(name, {}, card)).toMatchObject({ kind: "unpriced" });
    expect(priceResource({ type: name, props: {} }, card)).toBeUndefined();
  });

  it.each(PROTO_NAMES)("power state %s charges the whole flavor, never a function", (name) => {
    expect(priceMonthly(INSTANCE, { flavorName: "m1.small", powerState: name }, card)).toMatchObject({
      kind: "priced",
      monthly: 36.5,
    });
  });

  it("a card pricing by a property named __proto__ or constructor reads only the input itself", () => {
    const byProto = parseRateCard({ types: { "x:y/z:Z": { property: "constructor", perUnitMonth: 1 } } });
    expect(priceMonthly("x:y/z:Z", {}, byProto)).toMatchObject({ kind: "unpriced" });
    expect(priceMonthly("x:y/z:Z", { constructor: 3 }, byProto)).toMatchObject({
      kind: "priced",
      monthly: 3,
    });
  });

  it.each([
    [1e308, /size 1e\+308 is beyond 1000000000/],
    [1e10, /size 10000000000 is beyond 1000000000/],
    [-1, /size is -1, not a number of 0 or more/],
    [Number.NaN, /size is NaN, not a number of 0 or more/],
    [Number.POSITIVE_INFINITY, /size is Infinity, not a number of 0 or more/],
    ["100", /size is not a number/],
  ])("volume size %s is unpriced with the reason", (size, reason) => {
    const p = priceMonthly(VOLUME, { size, volumeType: "ssd" }, card);
    expect(p.kind).toBe("unpriced");
    expect(p.kind === "unpriced" && p.reason).toMatch(reason);
  });

  it("a monthly price beyond 1e12 is unpriced, not an Infinity", () => {
    const dear = parseRateCard({ flavors: { huge: 1e300 } });
    expect(priceMonthly(INSTANCE, { flavorName: "huge" }, dear)).toMatchObject({
      kind: "unpriced",
      reason: expect.stringMatching(/beyond 1000000000000; check the rate card/),
    });
  });

  it("a rate card naming __proto__ is refused, naming the field", () => {
    for (const key of ["flavors", "volumeTypes", "powerStates", "types"]) {
      const raw = JSON.parse(`{"${key}": {"__proto__": 1}}`);
      expect(() => parseRateCard(raw, "rates.yaml")).toThrow(
        expect.objectContaining({
          field: `rates.yaml.${key}`,
          message: expect.stringMatching(/"__proto__"/),
        }),
      );
    }
  });

  it("a product named constructor is refused, and a GraphQL type hint cannot name the prototype", () => {
    for (const name of PROTO_NAMES) {
      let err: unknown;
      try {
        parseProduct(name);
      } catch (e) {
        err = e;
      }
      expect(isConfigError(err)).toBe(true);
      const hint = `Variable "$${name}" of type "Float!" used in position expecting type "Int!"`;
      expect(expectedTypes([hint], DEFAULT_VARIABLE_TYPES)).toBeUndefined();
    }
  });
});

describe("costgate cost on prototype names and absurd sizes", () => {
  const dir = mkdtempSync(join(tmpdir(), "costgate-own-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const step = (name: string, type: string, inputs: Record<string, unknown>) => ({
    op: "create",
    urn: `urn:pulumi:dev::app::${type}::${name}`,
    newState: { urn: `urn:pulumi:dev::app::${type}::${name}`, type, custom: true, inputs },
  });
  const steps = [
    step("ok", INSTANCE, { flavorName: "m1.small" }),
    ...PROTO_NAMES.map((n) => step(`vm-${n.replace(/_/g, "")}`, INSTANCE, { flavorName: n })),
    step("vol-proto", VOLUME, { size: 10, volumeType: "__proto__" }),
    step("vol-huge", VOLUME, { size: 1e308, volumeType: "ssd" }),
    step("vol-neg", VOLUME, { size: -1, volumeType: "ssd" }),
  ];
  const preview = join(dir, "preview.json");
  const rates = join(dir, "rates.json");
  writeFileSync(preview, JSON.stringify({ steps }));
  writeFileSync(rates, JSON.stringify({ flavors: { "m1.small": 0.05 }, volumeTypes: { ssd: 0.2 } }));
  const cost = (...args: string[]) =>
    runCli(["cost", "--preview", preview, "--rate-card", rates, ...args], { COSTGATE_RETRIES: "0" });

  it("lists each as unpriced with the reason and keeps them out of the totals", async () => {
    const r = await cost("--json", "--max-monthly-increase", "1000");
    expect(r.stderr).toBe("");
    const body = JSON.parse(r.stdout);
    expect(body.totals.monthlyDelta).toBe(36.5);
    expect(body.unpriced).toHaveLength(PROTO_NAMES.length + 3);
    for (const n of PROTO_NAMES)
      expect(body.unpriced).toContainEqual(
        expect.objectContaining({ reason: `the rate card has no price for flavor ${n}` }),
      );
    // the unpriced gate is reported beside --max-monthly-increase: it does not pass unseen
    expect(body.gates).toContainEqual(
      expect.objectContaining({ gate: "unpriced", status: "fail", level: "advisory" }),
    );
    // advisory as documented: exit 0 without --fail-on-unpriced
    expect(r.code).toBe(0);
  });

  it("fails with --fail-on-unpriced (exit 1), never exit 5", async () => {
    const r = await cost("--max-monthly-increase", "1000", "--fail-on-unpriced");
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL +unpriced +9 resources could not be priced/);
    expect(r.stdout).toMatch(/UNPRICED vol-huge .*size 1e\+308 is beyond/);
    expect(r.stdout).toMatch(/UNPRICED vm-proto .*no price for flavor __proto__/);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});
