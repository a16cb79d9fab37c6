/**
 * Every knob: injected statuses, HTML pages, GraphQL errors, latency, dropped connections,
 * failTimes, and the representations of amounts, days, order and bonuses.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { BALANCE, gql, issue, report } from "./helpers";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, now: () => new Date("2026-11-21T12:00:00.000Z") });
});
afterEach(() => emu.resetKnobs());
afterAll(() => emu.close());

const balance = () => gql(emu, BALANCE, { id: 4242, product: 1 });
const month = async () =>
  (await report(emu, 4242, 1, "2026-10-22T00:00:00.000Z", "2026-11-21T00:00:00.000Z")).json.data.bill
    .reportSubscriptionConsuming.items as { day: string; totalAmount: unknown; totalBonuses: unknown }[];

describe("billing faults", () => {
  it("status answers every request with it, Retry-After included", async () => {
    Object.assign(emu.knobs.billing, { status: 429, retryAfter: 7 });
    const r = await balance();
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("7");
    expect(r.json).toEqual({ errors: [{ message: "Too Many Requests" }] });
  });

  it("htmlError answers nginx's 502 page", async () => {
    emu.knobs.billing.htmlError = true;
    const r = await balance();
    expect(r.status).toBe(502);
    expect(r.headers.get("content-type")).toBe("text/html");
    expect(r.text).toContain("<center>nginx</center>");
  });

  it("graphqlErrors answers 200 with the errors and data null", async () => {
    emu.knobs.billing.graphqlErrors = ["Internal error"];
    const r = await balance();
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ errors: [{ message: "Internal error", path: ["bill"] }], data: null });
  });

  it("failTimes fails the next N requests only, then clears the fault", async () => {
    Object.assign(emu.knobs.billing, { status: 503, failTimes: 2 });
    expect([(await balance()).status, (await balance()).status, (await balance()).status]).toEqual([
      503, 503, 200,
    ]);
    expect(emu.knobs.billing.status).toBeUndefined();
  });

  it("resetConnection drops the socket; latencyMs delays the answer", async () => {
    emu.knobs.billing.resetConnection = true;
    await expect(balance()).rejects.toThrow();
    emu.resetKnobs();
    emu.knobs.billing.latencyMs = 250;
    const t0 = Date.now();
    expect((await balance()).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
  });
});

describe("billing representation", () => {
  it("amountFormat string gives numeric strings with 2 decimals", async () => {
    emu.knobs.billing.amountFormat = "string";
    const b = (await balance()).json.data.bill.getSubscriptionBalance;
    expect(b.balance).toMatch(/^-?\d+\.\d\d$/);
    expect((await month())[0]?.totalAmount).toMatch(/^\d+\.\d\d$/);
  });

  it("dayFormat timestamp gives midnight UTC timestamps", async () => {
    emu.knobs.billing.dayFormat = "timestamp";
    expect((await month())[0]?.day).toBe("2026-10-22T00:00:00.000Z");
  });

  it("shuffle gives the same items out of date order", async () => {
    const sorted = await month();
    emu.knobs.billing.shuffle = true;
    const shuffled = await month();
    expect(shuffled.map((i) => i.day)).not.toEqual(sorted.map((i) => i.day));
    expect([...shuffled].sort((a, b) => a.day.localeCompare(b.day))).toEqual(sorted);
  });

  it("nullBonuses gives null bonuses, and null totalBonuses on days without bonuses", async () => {
    emu.knobs.billing.nullBonuses = true;
    expect((await balance()).json.data.bill.getSubscriptionBalance.bonuses).toBeNull();
    const items = await month();
    expect(items.some((i) => i.totalBonuses === null)).toBe(true);
    expect(items.every((i) => i.totalBonuses !== 0)).toBe(true);
  });
});

describe("identity faults", () => {
  it("status answers Keystone's error shape; failTimes then lets requests through", async () => {
    Object.assign(emu.knobs.identity, { status: 503, failTimes: 1 });
    const r = await issue(emu);
    expect(r.status).toBe(503);
    expect(r.json).toEqual({
      error: { code: 503, message: "Service Unavailable", title: "Service Unavailable" },
    });
    expect((await issue(emu)).status).toBe(201);
  });

  it("htmlError answers an HTML 502; resetConnection drops the socket", async () => {
    emu.knobs.identity.htmlError = true;
    const r = await issue(emu);
    expect(r.status).toBe(502);
    expect(r.text).toContain("502 Bad Gateway");
    emu.resetKnobs();
    emu.knobs.identity.resetConnection = true;
    await expect(issue(emu)).rejects.toThrow();
  });

  it("omitSubjectToken issues 201 without X-Subject-Token; latencyMs delays", async () => {
    Object.assign(emu.knobs.identity, { omitSubjectToken: true, latencyMs: 200 });
    const t0 = Date.now();
    const r = await issue(emu);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(r.status).toBe(201);
    expect(r.token).toBe("");
    expect(r.json.token.methods).toEqual(["application_credential"]);
  });
});
