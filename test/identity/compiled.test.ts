/**
 * The token body and the auth methods are parsed by zod's compiled parser once a process has parsed
 * a few (provider/compiled.ts). It must answer exactly as the runtime parser does: same data, same
 * failures with the same issues, on valid and broken input alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compiled, safeParser } from "../../provider/compiled";
import {
  ApplicationCredentialAuthSchema,
  PasswordAuthSchema,
  validateAuth,
} from "../../provider/identity/auth";
import { TokenBodySchema } from "../../provider/identity/results";

const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 300) };

/** Mostly strings, sometimes what a broken server sends instead. */
const str = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 12 },
  { arbitrary: fc.constantFrom(undefined, null, 0, true, "", "  ", [], {}), weight: 1 },
);

/**
 * Token bodies; `broken` ones may lack any key and hold a wrong value anywhere, the others have
 * the keys the schema needs (and now and then a null where it allows one).
 */
function tokenBodies(broken: boolean) {
  const s = broken ? str : fc.string({ maxLength: 12 });
  const nullable = broken ? str : fc.oneof(fc.string({ maxLength: 12 }), fc.constant(null));
  const keys = <K extends string>(...k: K[]) => ({ requiredKeys: broken ? [] : k });
  const list = <T>(a: fc.Arbitrary<T>) =>
    broken ? fc.oneof(fc.array(a, { maxLength: 3 }), str) : fc.array(a, { maxLength: 3 });
  const domain = fc.record({ id: s, name: s, extra: fc.jsonValue() }, keys("id"));
  const ref = fc.record({ id: s, name: s, domain: broken ? fc.oneof(domain, str) : domain }, keys("id"));
  const endpoint = fc.record(
    { id: s, interface: s, region_id: nullable, region: nullable, url: s, extra: fc.jsonValue() },
    keys("interface", "url"),
  );
  const service = fc.record({ id: s, type: s, name: s, endpoints: list(endpoint) }, keys("type"));
  return fc.record(
    {
      token: fc.record(
        {
          methods: list(s),
          expires_at: s,
          issued_at: s,
          audit_ids: list(s),
          user: ref,
          project: ref,
          domain: ref,
          roles: list(ref),
          catalog: list(service),
          application_credential: fc.record(
            { id: s, name: s, restricted: broken ? fc.oneof(fc.boolean(), str) : fc.boolean() },
            keys("id"),
          ),
          is_domain: fc.jsonValue(),
        },
        { requiredKeys: ["expires_at", "user"] },
      ),
    },
    keys("token"),
  );
}

function sameAnswer(schema: z.ZodType, fast: z.ZodType, input: unknown): void {
  const slow = schema.safeParse(input);
  const quick = fast.safeParse(input);
  expect(quick.success).toBe(slow.success);
  if (slow.success) expect(quick.data).toStrictEqual(slow.data);
  else expect(quick.error?.issues).toStrictEqual(slow.error.issues);
}

describe("compiled schemas", () => {
  it.each([
    ["TokenBodySchema", TokenBodySchema],
    ["ApplicationCredentialAuthSchema", ApplicationCredentialAuthSchema],
    ["PasswordAuthSchema", PasswordAuthSchema],
  ] as const)("zod compiles %s (not a silent fall-back to the runtime parser)", (_name, schema) => {
    expect(() => z.compile(schema, { strict: true })).not.toThrow();
  });

  it.each([
    ["whole", false],
    ["broken", true],
  ])("%s token bodies: the same answer as the runtime parser", (_name, broken) => {
    const fast = compiled(TokenBodySchema);
    let accepted = 0;
    fc.assert(
      fc.property(tokenBodies(broken), (body) => {
        sameAnswer(TokenBodySchema, fast, body);
        if (TokenBodySchema.safeParse(body).success) accepted++;
      }),
      RUNS,
    );
    // whole bodies are accepted, broken ones mostly refused
    if (broken) expect(accepted).toBeLessThan(RUNS.numRuns / 2);
    else expect(accepted).toBe(RUNS.numRuns);
  });

  it("auth methods: the same answer as the runtime parser, trimming included", () => {
    const appCred = fc.record(
      {
        type: fc.constant("application_credential"),
        applicationCredentialId: str,
        applicationCredentialName: str,
        applicationCredentialSecret: str,
        userId: str,
        userName: str,
        userDomainId: str,
        userDomainName: str,
        unknown: str,
      },
      { requiredKeys: ["type"] },
    );
    const password = fc.record(
      {
        type: fc.constant("password"),
        userName: str,
        userId: str,
        userDomainName: str,
        userDomainId: str,
        password: str,
        projectId: str,
        projectName: str,
        projectDomainId: str,
        projectDomainName: str,
        unknown: str,
      },
      { requiredKeys: ["type"] },
    );
    const fastApp = compiled(ApplicationCredentialAuthSchema);
    const fastPassword = compiled(PasswordAuthSchema);
    fc.assert(
      fc.property(appCred, (m) => sameAnswer(ApplicationCredentialAuthSchema, fastApp, m)),
      RUNS,
    );
    fc.assert(
      fc.property(password, (m) => sameAnswer(PasswordAuthSchema, fastPassword, m)),
      RUNS,
    );
    sameAnswer(ApplicationCredentialAuthSchema, fastApp, {
      type: "application_credential",
      applicationCredentialId: "  ac1  ",
      applicationCredentialSecret: " s ",
    });
  });

  it("safeParser answers the same before and after it compiles", () => {
    const parse = safeParser(ApplicationCredentialAuthSchema);
    const good = {
      type: "application_credential",
      applicationCredentialId: " ac1 ",
      applicationCredentialSecret: "s",
    };
    const bad = {
      type: "application_credential",
      applicationCredentialId: "   ",
      applicationCredentialSecret: "s",
    };
    for (let i = 0; i < 6; i++) {
      expect(parse(good)).toStrictEqual(ApplicationCredentialAuthSchema.safeParse(good));
      const failed = parse(bad);
      expect(failed.success).toBe(false);
      expect(failed.error?.issues).toStrictEqual(
        ApplicationCredentialAuthSchema.safeParse(bad).error?.issues,
      );
    }
  });

  it("validateAuth names the same field on every call", () => {
    for (let i = 0; i < 6; i++) {
      expect(() =>
        validateAuth({
          type: "application_credential",
          applicationCredentialId: " ",
          applicationCredentialSecret: "s",
        }),
      ).toThrowError(/^applicationCredentialId/);
      expect(
        validateAuth({ type: "password", userId: " u1 ", password: "p", projectId: "p1" }),
      ).toStrictEqual({
        type: "password",
        userId: "u1",
        password: "p",
        projectId: "p1",
      });
    }
  });
});
