/**
 * The billing endpoint's HTTP surface: the X-User-Token rules of spec §5/§7 and GraphQL-over-HTTP
 * answers (400 for parse and validation errors).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { BALANCE, call, gql, postJson } from "./helpers";

let emu: Emulator;
const vars = { id: 4242, product: 1 };
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

describe("authentication (spec §5)", () => {
  it("accepts every seeded console access token in X-User-Token", async () => {
    for (const t of emu.seed.billing.tokens) {
      const r = await gql(emu, BALANCE, vars, { "X-User-Token": t.token });
      expect(r.status).toBe(200);
      expect(r.json.data.bill.getSubscriptionBalance).not.toBeNull();
    }
  });

  it("answers 401 without a token, with a wrong one, and with Authorization: Bearer (even next to a good one)", async () => {
    const good = emu.seed.billing.token;
    const cases: Record<string, string>[] = [
      {},
      { "X-User-Token": "wrong" },
      { Authorization: `Bearer ${good}` },
      { Authorization: `Bearer ${good}`, "X-User-Token": good },
    ];
    for (const headers of cases) {
      const r = await gql(emu, BALANCE, vars, headers);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ errors: [{ message: "Unauthorized" }] });
    }
  });
});

describe("GraphQL over HTTP", () => {
  const auth = () => ({ "X-User-Token": emu.seed.billing.token });

  it("answers 400 with locations for a syntax error and for an unknown field", async () => {
    const syntax = await gql(emu, "{ bill { ", undefined, auth());
    expect(syntax.status).toBe(400);
    expect(syntax.json.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Syntax Error/),
      locations: [{}],
    });
    const unknown = await gql(emu, "{ bill { nope } }", undefined, auth());
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0].message).toMatch(/Cannot query field "nope" on type "Bill"/);
  });

  it("answers 400 for a missing variable and for a body that is not JSON", async () => {
    const missing = await gql(emu, BALANCE, { id: 4242 }, auth());
    expect(missing.status).toBe(400);
    expect(missing.json.data).toBeUndefined();
    const notJson = await postJson(`${emu.billingUrl}/bill/graphql`, "{nope", auth());
    expect(notJson.status).toBe(400);
  });

  it("runs an inline query without variables; refuses GET with 405", async () => {
    const r = await gql(
      emu,
      "{ bill { getSubscriptionBalance(externalSubscriptionId: 4242, productId: 1) { balance } } }",
      undefined,
      auth(),
    );
    expect(typeof r.json.data.bill.getSubscriptionBalance.balance).toBe("number");
    expect((await call(`${emu.billingUrl}/bill/graphql`, { headers: auth() })).status).toBe(405);
  });

  it("records what the client sent, headers in lower case", async () => {
    emu.requests.length = 0;
    await gql(emu, BALANCE, vars, auth());
    expect(emu.requests[0]).toMatchObject({
      method: "POST",
      path: "/bill/graphql",
      headers: { "x-user-token": emu.seed.billing.token },
      body: { query: BALANCE, variables: vars },
    });
  });
});
