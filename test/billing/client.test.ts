/**
 * The billing client over real HTTP against the emulator: headers, documents, every response shape
 * the spec leaves open, failures, and windows.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { getBalance, getConsumption } from "../../provider/billing/client";
import {
  isAuthError,
  isGraphQLError,
  isHttpError,
  isLimitError,
  isResponseError,
} from "../../provider/errors";

let emu: Emulator;
const ep = () => ({ baseUrl: emu.billingUrl, token: emu.seed.billing.token });
const billingRequests = () => emu.requests.filter((r) => r.path === "/bill/graphql");

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  emu.resetKnobs();
  emu.requests.length = 0;
});

const daily = [
  { day: "2026-11-03", totalAmount: 0.1, totalBonuses: 0 },
  { day: "2026-11-01", totalAmount: 0.2, totalBonuses: 0.05 },
  { day: "2026-11-02", totalAmount: 1312.4, totalBonuses: 0 },
];

describe("getBalance", () => {
  it("sends X-User-Token, never Authorization, and a fixed document with variables", async () => {
    const b = await getBalance(ep(), { projectId: 4242, product: "openstack" });
    expect(typeof b.balance).toBe("number");
    expect(b).toMatchObject({ projectId: 4242, productId: 1 });
    const [req] = billingRequests();
    expect(req?.headers["x-user-token"]).toBe(emu.seed.billing.token);
    expect(req?.headers.authorization).toBeUndefined();
    const body = req?.body as { query: string; variables: Record<string, unknown> };
    expect(body.variables).toEqual({ externalSubscriptionId: 4242, productId: 1 });
    expect(body.query).not.toContain("4242");
  });

  it("accepts amounts as numeric strings", async () => {
    emu.knobs.billing.amountFormat = "string";
    const b = await getBalance(ep(), { projectId: 4242 });
    expect(typeof b.balance).toBe("number");
  });

  it("says 'no data — check productId' for a product the project lacks", async () => {
    const e = await getBalance(ep(), { projectId: 1002, product: 1 }).catch((x) => x);
    expect(isResponseError(e)).toBe(true);
    expect(e.message).toMatch(/^no data — check productId/);
  });

  it("explains a 401: X-User-Token, not Bearer, and which token to create", async () => {
    const e = await getBalance({ ...ep(), token: "not-a-token" }, { projectId: 4242 }).catch((x) => x);
    expect(isAuthError(e)).toBe(true);
    expect(e.message).toMatch(/X-User-Token/);
    expect(e.message).toMatch(/Authorization: Bearer/);
    expect(e.message).toMatch(/access tokens/);
    expect(e.message).not.toContain("not-a-token");
  });

  it("turns GraphQL errors with HTTP 200 into one error with every message", async () => {
    emu.knobs.billing.graphqlErrors = ["first problem", "second problem"];
    const e = await getBalance(ep(), { projectId: 4242 }).catch((x) => x);
    expect(isGraphQLError(e)).toBe(true);
    expect(e.messages).toEqual(["first problem", "second problem"]);
    expect(e.message).toMatch(/first problem; second problem/);
  });

  it("names the status of an HTML 502 page instead of a parse error", async () => {
    emu.knobs.billing.htmlError = true;
    emu.knobs.billing.status = 502;
    const e = await getBalance(ep(), { projectId: 4242 }).catch((x) => x);
    expect(isHttpError(e)).toBe(true);
    expect(e.message).toMatch(/answered 502 .* with an HTML page/);
    expect(e.message).not.toMatch(/<html|Unexpected token/i);
  });

  it("refuses bad input before any request", async () => {
    await expect(getBalance(ep(), { projectId: -1 })).rejects.toThrowError(/^projectId:/);
    await expect(getBalance(ep(), { projectId: 1, product: "aws" })).rejects.toThrowError(/^product:/);
    await expect(getBalance({ ...ep(), baseUrl: "ftp://x" }, { projectId: 1 })).rejects.toThrowError(
      /^billingUrl:/,
    );
    expect(billingRequests()).toHaveLength(0);
  });
});

describe("getConsumption", () => {
  beforeAll(() => {
    emu.setProject({ id: 777, products: { 1: { balance: 100, bonuses: 0, daily } } });
  });

  it.each([
    ["numbers and dates", {}],
    ["numeric strings", { amountFormat: "string" }],
    ["timestamps", { dayFormat: "timestamp" }],
    ["shuffled items", { shuffle: true }],
    ["null bonuses", { nullBonuses: true }],
  ])("normalizes %s: sorted days, numbers, exact totals", async (_name, knobs) => {
    Object.assign(emu.knobs.billing, knobs);
    const u = await getConsumption(
      ep(),
      { projectId: 777, from: "2026-11-01", to: "2026-11-03" },
      () => new Date("2026-11-22T00:00:00Z"),
    );
    expect(u.items.map((i) => i.day)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03"]);
    expect(u.items.map((i) => i.totalAmount)).toEqual([0.2, 1312.4, 0.1]);
    expect(u.total.amount).toBe(1312.7);
    expect(u.days).toBe(3);
    expect(u.dailyAverage).toBe(437.57);
    expect(u.highestDay?.day).toBe("2026-11-02");
    expect(u.periodFrom).toBe("2026-11-01T00:00:00.000Z");
    expect(u.periodTo).toBe("2026-11-03T23:59:59.999Z");
  });

  it("fills missing days with zeros when asked", async () => {
    const u = await getConsumption(
      ep(),
      { projectId: 777, from: "2026-10-30", to: "2026-11-04", fillMissingDays: true },
      () => new Date("2026-11-22T00:00:00Z"),
    );
    expect(u.items.map((i) => i.totalAmount)).toEqual([0, 0, 0.2, 1312.4, 0.1, 0]);
    expect(u.days).toBe(6);
  });

  it("splits a long period into windows and merges them without losing or doubling a day", async () => {
    const q = { projectId: 4242, from: "2023-12-15", to: "2026-11-20" };
    const one = await getConsumption(ep(), { ...q, windowDays: 5000 });
    expect(billingRequests()).toHaveLength(1);
    emu.requests.length = 0;
    const many = await getConsumption(ep(), { ...q, windowDays: 31, concurrency: 3 });
    expect(billingRequests()).toHaveLength(Math.ceil(many.days / 31));
    expect(many.items).toEqual(one.items);
    expect(many.total).toEqual(one.total);
    const sent = billingRequests().map(
      (r) => (r.body as { variables: { periodFrom: string; periodTo: string } }).variables,
    );
    expect(sent.every((v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v.periodFrom))).toBe(true);
    expect(
      sent.some((v) => v.periodTo === "2023-12-31T23:59:59.999Z" || v.periodFrom.startsWith("2024-01")),
    ).toBe(true);
  });

  it("refuses an impossible date and a reversed period before any request", async () => {
    await expect(
      getConsumption(ep(), { projectId: 777, from: "2026-02-30", to: "2026-03-02" }),
    ).rejects.toThrowError(/^from: "2026-02-30" is not a real date/);
    await expect(
      getConsumption(ep(), { projectId: 777, from: "2026-11-02", to: "2026-11-01" }),
    ).rejects.toThrowError(/^to: .* is before from/);
    expect(billingRequests()).toHaveLength(0);
  });

  it("refuses a typo'd year and a period over maxPeriodDays before any request", async () => {
    await expect(
      getConsumption(ep(), { projectId: 4242, from: "0026-11-01", to: "2026-11-22" }),
    ).rejects.toThrowError(/^from: "0026-11-01" is before 2000/);
    await expect(
      getConsumption(ep(), { projectId: 4242, from: "2026-10-01", to: "2026-11-22", maxPeriodDays: 30 }),
    ).rejects.toThrowError(/^from: the period 2026-10-01 to 2026-11-22 is 53 days, longer than 30/);
    expect(billingRequests()).toHaveLength(0);
  });

  it("sends at most maxRequests requests, retries included: refused up front, or stopped at the cap", async () => {
    await expect(
      getConsumption(ep(), { projectId: 4242, from: "2026-01-01", to: "2026-11-22", windowDays: 1 }),
    ).rejects.toThrowError(/^maxRequests: .* needs 326 requests \(windows of 1 day\), more than 200/);
    const refused = await getConsumption(ep(), {
      projectId: 4242,
      from: "2026-11-01",
      to: "2026-11-22",
      windowDays: 1,
      maxRequests: 10,
    }).catch((e: Error) => e);
    expect((refused as Error).message).toMatch(
      /^maxRequests: .* needs 22 requests \(windows of 1 day\), more than 10/,
    );
    expect(billingRequests()).toHaveLength(0);
    emu.knobs.billing.status = 503;
    const stopped = await getConsumption(
      { ...ep(), transport: { retry: { tries: 10, baseMs: 1, maxDelayMs: 1 } } },
      { projectId: 4242, from: "2026-11-01", to: "2026-11-22", maxRequests: 3 },
    ).catch((e: Error) => e);
    expect(isLimitError(stopped)).toBe(true);
    expect((stopped as Error).message).toMatch(/^maxRequests: reached: 3 requests already sent/);
    expect(billingRequests()).toHaveLength(3);
  });
});

describe("the base address from a program", () => {
  it("refuses a missing, blank or non-string base address as missing, before any request", async () => {
    for (const baseUrl of [undefined, null, "", "   ", 42, {}]) {
      const at = { baseUrl, token: emu.seed.billing.token } as unknown as ReturnType<typeof ep>;
      await expect(getBalance(at, { projectId: 4242 })).rejects.toThrow(
        /^billingUrl: missing; give the billing base address, e\.g\. https:\/\/console\.example$/,
      );
    }
    expect(billingRequests()).toHaveLength(0);
  });
});
