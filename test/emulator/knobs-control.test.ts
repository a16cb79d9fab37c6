/**
 * Driving the emulator's knobs from outside, as a CI job does with `costgate emulator`: the
 * `/_emulator/knobs` control (GET, PUT, DELETE) and `--knobs` at start. A change is validated
 * whole before anything is set; the control's own requests are neither recorded nor faulted.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { applyKnobs, defaultKnobs, KNOBS_PATH } from "../../emulator/knobs";
import { getBalance } from "../../provider/billing/client";
import { testRetry } from "../faults/helpers";
import { runCli } from "../helpers/cli";
import { call } from "./helpers";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterEach(() => emu.resetKnobs());
afterAll(() => emu.close());

const control = (method: string, body?: string) =>
  call(
    `${emu.url}${KNOBS_PATH}`,
    body === undefined ? { method } : { method, body, headers: { "Content-Type": "application/json" } },
  );

describe("applyKnobs", () => {
  it("sets the knobs named, removes those given as null, and restores a representation's default", () => {
    const k = defaultKnobs();
    applyKnobs(k, {
      billing: { status: 503, retryAfter: 2, amountFormat: "string" },
      identity: { latencyMs: 5 },
    });
    expect(k.billing).toMatchObject({ status: 503, retryAfter: 2, amountFormat: "string" });
    expect(k.identity).toEqual({ latencyMs: 5 });
    applyKnobs(k, { billing: { status: null, amountFormat: null } });
    expect(k.billing.status).toBeUndefined();
    expect("status" in k.billing).toBe(false);
    expect(k.billing.amountFormat).toBe("number");
    expect(k.billing.retryAfter).toBe(2);
  });

  it.each([
    [{ billing: { status: "503" } }, /^billing\.status: .*expected number/],
    [{ billing: { status: 42 } }, /^billing\.status: /],
    [{ billing: { stauts: 503 } }, /^billing: .*"stauts"/],
    [{ identity: { failTimes: 0 } }, /^identity\.failTimes: /],
    [{ identity: { graphqlErrors: ["x"] } }, /^identity: .*"graphqlErrors"/],
    [{ billing: { dayFormat: "unix" } }, /^billing\.dayFormat: /],
    [{ storage: {} }, /^knobs: .*"storage"/],
    [[], /^knobs: /],
    // the valid part of a bad change is not applied either
    [{ billing: { latencyMs: 1 }, identity: { status: "x" } }, /^identity\.status: /],
  ])("refuses %j, naming the knob, and changes nothing", (patch, message) => {
    const k = defaultKnobs();
    expect(() => applyKnobs(k, patch)).toThrow(message);
    expect(k).toEqual(defaultKnobs());
  });
});

describe(`${KNOBS_PATH}`, () => {
  it("injects faults from outside: a 503 twice with Retry-After, then the balance", async () => {
    const set = await control(
      "PUT",
      JSON.stringify({ billing: { status: 503, retryAfter: 1, failTimes: 2 } }),
    );
    expect(set.status).toBe(200);
    expect(set.json.billing).toMatchObject({ status: 503, retryAfter: 1, failTimes: 2 });
    emu.requests.length = 0;
    const { retry, delays } = testRetry();
    const b = await getBalance(
      { baseUrl: emu.billingUrl, token: emu.seed.billing.token, transport: { retry } },
      { projectId: 4242 },
    );
    expect(b.projectId).toBe(4242);
    expect(delays).toEqual([1_000, 1_000]);
    expect(emu.requests.map((r) => r.path)).toEqual(["/bill/graphql", "/bill/graphql", "/bill/graphql"]);
    // failTimes used up: the faults are gone, the rest stays
    expect((await control("GET")).json.billing.status).toBeUndefined();
  });

  it("shows the knobs, resets them with DELETE, and is not itself recorded or faulted", async () => {
    await control("PUT", JSON.stringify({ identity: { resetConnection: true }, billing: { shuffle: true } }));
    emu.requests.length = 0;
    const shown = await control("GET");
    expect(shown.status).toBe(200);
    expect(shown.json).toEqual({
      billing: { ...defaultKnobs().billing, shuffle: true },
      identity: { resetConnection: true },
    });
    const reset = await control("DELETE");
    expect(reset.json).toEqual(defaultKnobs());
    expect(emu.knobs).toEqual(defaultKnobs());
    expect(emu.requests).toEqual([]);
  });

  it("answers 400 naming the knob for a bad change, 400 for a body that is not JSON, 405 otherwise", async () => {
    const bad = await control("PUT", JSON.stringify({ billing: { status: 700 } }));
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^billing\.status: /);
    const notJson = await control("PUT", "status=503");
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.message).toMatch(/not JSON/);
    expect((await control("HEAD")).status).toBe(405);
    expect(emu.knobs).toEqual(defaultKnobs());
  });
});

describe("costgate emulator --knobs", () => {
  const BIN = resolve(__dirname, "../../bin/costgate");

  it("refuses a bad knob before starting: exit 2, naming it", async () => {
    const r = await runCli(["emulator", "--port", "0", "--knobs", '{"billing":{"status":"503"}}'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--knobs: billing\.status: /);
    const notJson = await runCli(["emulator", "--port", "0", "--knobs", "status=503"], {});
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/--knobs must be JSON/);
  });

  it("starts with the faults set: the first balance gets the 503, and PUT clears it", async () => {
    const child = spawn(
      BIN,
      ["emulator", "--port", "0", "--json", "--knobs", '{"billing":{"status":503,"retryAfter":30}}'],
      { env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const line = await new Promise<string>((ok, fail) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) ok(out);
        });
        child.once("exit", (code) => fail(new Error(`emulator exited ${code}`)));
      });
      const info = JSON.parse(line) as {
        url: string;
        billingUrl: string;
        seed: { billing: { token: string } };
      };
      const env = { COSTGATE_BILLING_URL: info.billingUrl, COSTGATE_BILLING_TOKEN: info.seed.billing.token };
      const refused = await runCli(["balance", "--project-id", "4242"], env);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/answered 503 .* try again later \(it asks to wait 30 s\)/);
      const cleared = await call(`${info.url}${KNOBS_PATH}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ billing: { status: null, retryAfter: null } }),
      });
      expect(cleared.status).toBe(200);
      const ok = await runCli(["balance", "--project-id", "4242"], env);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/Project 4242/);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
