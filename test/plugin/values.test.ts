/**
 * The plugin's value handling, over random wire data (fast-check): secret envelopes come off and go back
 * on without loss, what is sent as a Struct never holds `undefined`, and checking any property map —
 * configuration, resource inputs, function arguments — answers with failures naming a field, never
 * throws, in bounded time and memory.
 */

import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkConfig } from "../../provider/plugin/config";
import { checkArgs } from "../../provider/plugin/invoke";
import * as resources from "../../provider/plugin/resources";
import { conceal, plain, reveal, SECRET_SIG, UNKNOWN } from "../../provider/plugin/values";

const require = createRequire(import.meta.url);
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");

const json = fc.jsonValue({ maxDepth: 4 });
const keys = fc.constantFrom(
  "authUrl",
  "applicationCredentialId",
  "applicationCredentialSecret",
  "password",
  "username",
  "renewBefore",
  "insecure",
  "timeoutSeconds",
  "caCert",
  "projectId",
  "from",
  "windowDays",
  "billingToken",
  "cloud",
  "other",
);
const wire = fc.oneof(
  json,
  fc.constant(UNKNOWN),
  json.map((v) => ({ [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value: v })),
);
const props = fc.dictionary(keys, wire, { maxKeys: 8 });

function bounded(run: () => void, ms: number): void {
  const heap = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  run();
  expect(performance.now() - t0).toBeLessThan(ms);
  expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 * 1024 * 1024);
}

describe("nulls (Pulumi's not set)", () => {
  it("a null renewBefore is not set, not a crash", () => {
    for (const type of ["costgate:index:AppCredentialToken", "costgate:index:PasswordToken"]) {
      const r = resources.check(type, { renewBefore: null }, {}, {});
      for (const f of r.failures) expect(f.property).not.toBe("renewBefore");
    }
  });
});

describe("secret envelopes", () => {
  it("reveal(conceal(x)) is x, and every concealed key is an envelope", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), json),
        fc.array(fc.string({ maxLength: 8 })),
        (o, ks) => {
          const c = conceal(o, ks);
          for (const k of ks)
            if (Object.hasOwn(o, k)) expect((c[k] as Record<string, unknown>)[SECRET_SIG]).toBeDefined();
          expect(reveal(c)).toEqual(reveal(o));
        },
      ),
    );
  });

  it("plain writes an invalid Date as null, as JSON does (it threw 'Invalid time value')", () => {
    const p = plain({ at: new Date(Number.NaN), when: new Date(0), list: [new Date(Number.NaN)] });
    expect(p).toEqual({ at: null, when: "1970-01-01T00:00:00.000Z", list: [null] });
    expect(() => Struct.fromJavaScript(p)).not.toThrow();
  });

  it("plain leaves nothing a Struct refuses", () => {
    const anything = fc.anything({ maxDepth: 3, withDate: true, withNullPrototype: true });
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), anything), (o) => {
        let p: unknown;
        try {
          p = plain(o);
        } catch (e) {
          // a bigint, a symbol or a function is refused by name, never sent
          expect((e as Error).message).toMatch(/cannot be sent as a property value/);
          return;
        }
        expect(() => Struct.fromJavaScript(p)).not.toThrow();
        expect(JSON.stringify(p)).not.toContain("undefined");
      }),
    );
  });
});

describe("checks over random property maps", () => {
  it("never throw, name a field in each failure, in bounded time and memory", () => {
    bounded(() => {
      fc.assert(
        fc.property(props, (p) => {
          for (const r of [
            checkConfig(p).failures,
            resources.check("costgate:index:AppCredentialToken", p, {}, {}).failures,
            resources.check("costgate:index:PasswordToken", p, {}, {}).failures,
            checkArgs("costgate:index:getProjectConsumption", p),
          ]) {
            for (const f of r) {
              expect(f.property).toMatch(/\S/);
              expect(f.reason.startsWith(`${f.property}`)).toBe(true);
            }
          }
        }),
        { numRuns: Number(process.env["FC_RUNS"] ?? 300) },
      );
    }, 20_000);
  });

  it("a secret never appears in a failure's reason", () => {
    fc.assert(
      fc.property(props, fc.stringMatching(/^[A-Za-z0-9]{16,24}$/), (p, s) => {
        const withSecret = {
          ...p,
          applicationCredentialSecret: { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value: s },
          password: s,
        };
        const failures = [
          ...resources.check("costgate:index:AppCredentialToken", withSecret, {}, {}).failures,
          ...resources.check("costgate:index:PasswordToken", withSecret, {}, {}).failures,
        ];
        for (const f of failures) expect(f.reason).not.toContain(s);
      }),
      { numRuns: 200 },
    );
  });
});
