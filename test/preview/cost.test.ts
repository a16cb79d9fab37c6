/**
 * Pricing a preview digest: every operation, replacement steps folded, secrets and unknowns never priced,
 * malformed input refused with a clear error. The figures are worked out by hand from
 * test/fixtures/preview/rate-card.yaml.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { priceResource } from "../../policies/budget/cost";
import { isConfigError } from "../../provider/errors";
import { priceDigest } from "../../provider/preview/cost";
import { parseDigest } from "../../provider/preview/digest";
import { priceMonthly, UNKNOWN_TEXT } from "../../provider/pricing/price";
import { parseRateCard } from "../../provider/pricing/rate-card";

const DIR = join(__dirname, "../fixtures/preview");
const card = parseRateCard(parse(readFileSync(join(DIR, "rate-card.yaml"), "utf8")));
const digest = (name: string) => parseDigest(readFileSync(join(DIR, name), "utf8"), name);
const byName = (urn: string) => urn.split("::").pop();

describe("priceDigest", () => {
  const cost = priceDigest(digest("all-ops.json"), card);
  const row = (name: string) => cost.resources.find((r) => byName(r.urn) === name);

  it("prices creates, updates, replacements, deletions and unchanged resources, to the cent", () => {
    expect(row("web-1")).toMatchObject({
      op: "create",
      monthlyBefore: 0,
      monthlyAfter: 101.25,
      monthlyDelta: 101.25,
    });
    expect(row("data")).toMatchObject({ op: "create", monthlyAfter: 17 }); // 100 GB × 0.17 (ssd)
    expect(row("ip")).toMatchObject({ op: "create", monthlyAfter: 4.02 }); // 0.0055 × 730 = 4.015
    // a resize: m1.small (0.0347 × 730 = 25.331) to m1.medium (0.0694 × 730 = 50.662)
    expect(row("app")).toMatchObject({
      op: "update",
      monthlyBefore: 25.33,
      monthlyAfter: 50.66,
      monthlyDelta: 25.33,
    });
    // replaced and grown 50 → 80 GB; its type left to the provider, read from the old outputs (ssd)
    expect(row("logs")).toMatchObject({
      op: "replace",
      monthlyBefore: 8.5,
      monthlyAfter: 13.6,
      monthlyDelta: 5.1,
    });
    expect(row("old-ip")).toMatchObject({
      op: "delete",
      monthlyBefore: 4.02,
      monthlyAfter: 0,
      monthlyDelta: -4.02,
    });
    expect(row("db")).toMatchObject({
      op: "same",
      monthlyBefore: 25.33,
      monthlyAfter: 25.33,
      monthlyDelta: 0,
    });
    // shelved and offloaded: no compute charged
    expect(row("batch")).toMatchObject({ op: "update", monthlyBefore: 50.66, monthlyAfter: 0 });
    expect(row("net")).toMatchObject({
      monthlyAfter: 0,
      pricedBy: "openstack:networking/network:Network: 0/month",
    });
    expect(row("files")).toMatchObject({ monthlyAfter: 24 }); // 200 × 0.12 per unit-month
    expect(row("gpu")).toMatchObject({ monthlyAfter: 146 }); // by flavor id, 0.2 × 730
    expect(row("assets")).toMatchObject({
      op: "update",
      monthlyBefore: 2.5,
      monthlyAfter: 2.5,
      monthlyDelta: 0,
    });
    expect(cost.totals).toEqual({ monthlyBefore: 116.34, monthlyAfter: 384.36, monthlyDelta: 268.02 });
    expect(cost.currency).toBe("EUR");
  });

  it("lists what it cannot price with the reason, never as 0, and leaves out the stack, components and providers", () => {
    expect(cost.unpriced.map((u) => [byName(u.urn), u.op, u.reason])).toEqual([
      ["secret-flavor", "create", "flavorName is a secret; secrets are never used as price inputs"],
      ["scratch", "create", "size is not known until apply"],
      [
        "www",
        "create",
        "the rate card has no price for openstack:dns/recordSet:RecordSet (name it under types, { month: 0 } if free)",
      ],
    ]);
    expect(cost.resources.map((r) => byName(r.urn))).not.toContain("secret-flavor");
    expect(cost.ignored).toBe(3); // the stack, the explicit provider, the component
    expect(JSON.stringify(cost)).not.toContain("[secret]");
  });

  it("folds --show-replacement-steps into one replace per resource, either order", () => {
    const r = priceDigest(digest("replacement-steps.json"), card);
    expect(
      r.resources.map((x) => [byName(x.urn), x.op, x.monthlyBefore, x.monthlyAfter, x.monthlyDelta]),
    ).toEqual([
      ["vol", "replace", 0.8, 1.6, 0.8],
      ["web", "replace", 25.33, 101.25, 75.92],
    ]);
    expect(r.totals).toEqual({ monthlyBefore: 26.13, monthlyAfter: 102.85, monthlyDelta: 76.72 });
  });

  it("prices an empty change as nothing", () => {
    expect(priceDigest(digest("no-changes.json"), card).totals).toEqual({
      monthlyBefore: 0,
      monthlyAfter: 0,
      monthlyDelta: 0,
    });
    expect(priceDigest(parseDigest("{}"), card).resources).toEqual([]);
  });
});

describe("parseDigest", () => {
  const refuse = (text: string) => {
    try {
      parseDigest(text, "preview.json");
    } catch (e) {
      expect(isConfigError(e)).toBe(true);
      return (e as Error).message;
    }
    throw new Error("accepted");
  };

  it.each([
    ["", /preview.json is empty/],
    ["Previewing update (prod):", /preview.json is not JSON \(it fails to parse/],
    [
      readFileSync(join(DIR, "truncated.json"), "utf8"),
      /ends before its JSON does at line \d+, column \d+: the file is truncated/,
    ],
    ['{"resources": []}', /is JSON but not a preview digest: it has no steps/],
    ["[1, 2]", /is JSON but not a preview digest/],
    ['{"steps": {}}', /steps is not a list/],
    ['{"steps": [{"urn": "urn:pulumi:a::b::c::d"}]}', /steps\[0\] has no op/],
    ['{"steps": [{"op": "create", "urn": "x"}]}', /steps\[0\] has no urn/],
  ])("refuses %#, naming what is wrong and how to get a digest", (text, message) => {
    const m = refuse(text);
    expect(m).toMatch(message);
    // the library names its own setting; the command line passes its flag (test/hostile/door2.test.ts)
    expect(m).toMatch(/^preview: /);
  });

  it("never quotes the file's content in an error", () => {
    expect(refuse('{"steps": [ {"op": "create", "password": "hunter2-secret" ]}')).not.toContain("hunter2");
  });
});

describe("the rate card", () => {
  it.each([
    [{ flavors: { a: -1 } }, /^rateCard\.flavors\.a: must be 0 or more/],
    [{ flavors: { a: { hour: 1, month: 2 } } }, /^rateCard\.flavors\.a: /],
    [
      { types: { t: { perUnitMonth: 1 } } },
      /^rateCard\.types\.t: perUnitHour and perUnitMonth need property/,
    ],
    [{ flavour: {} }, /^rateCard: has an unknown setting "flavour"/],
    [{ powerStates: { shelved: 2 } }, /^rateCard\.powerStates\.shelved: must be at most 1/],
  ])("refuses %o naming the field", (value, message) => {
    expect(() => parseRateCard(value)).toThrow(message);
  });
});

describe("one pricing module: the pack and costgate cost agree", () => {
  const props = (o: Record<string, unknown>) => o;
  it.each([
    ["openstack:compute/instance:Instance", { flavorName: "m1.small" }],
    ["openstack:compute/instance:Instance", { flavorName: "m1.large" }],
    ["openstack:blockstorage/volume:Volume", { size: 100, volumeType: "ssd" }],
    ["openstack:blockstorage/volume:Volume", { size: 33 }],
    ["openstack:networking/floatingIp:FloatingIp", { pool: "public" }],
    ["openstack:sharedfilesystem/share:Share", { size: 200 }],
  ])("%s %o: the pack's daily price is costgate cost's monthly × 12 / 365", (type, inputs) => {
    const monthly = priceMonthly(type, inputs, card);
    const pack = priceResource({ type, props: props(inputs) }, card);
    if (monthly.kind !== "priced" || !pack || !("perDay" in pack)) throw new Error("not priced");
    expect(pack.perDay).toBe(monthly.perDay);
    expect(monthly.perDay).toBeCloseTo((monthly.monthly * 12) / 365, 9);
    expect(monthly.cents).toBeGreaterThan(0);
  });

  it("an unknown size is unpriced in both", () => {
    const inputs = { size: UNKNOWN_TEXT };
    expect(priceMonthly("openstack:blockstorage/volume:Volume", inputs, card)).toMatchObject({
      kind: "unpriced",
    });
    expect(priceResource({ type: "openstack:blockstorage/volume:Volume", props: inputs }, card)).toEqual({
      reason: "size is not known until apply",
    });
  });
});

describe("the README's rate card", () => {
  it("is a valid rate card", () => {
    const readme = readFileSync(join(__dirname, "../../README.md"), "utf8");
    const block = /```yaml\n# rates\.yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    expect(parseRateCard(parse(block ?? ""))).toMatchObject({ currency: "EUR" });
  });
});
