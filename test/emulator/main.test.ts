/**
 * The process entry: argument parsing, the JSON and banner outputs.
 */
import { describe, expect, it } from "vitest";
import { main, parseEmulatorArgs, UsageError } from "../../emulator/main";

describe("emulator main", () => {
  it("parses --port, --seed and --token-ttl, and refuses bad values", () => {
    expect(parseEmulatorArgs(["--port", "5000", "--seed", "demo", "--token-ttl", "60"]).options).toEqual({
      port: 5000,
      seed: "demo",
      tokenTtlSeconds: 60,
    });
    expect(() => parseEmulatorArgs(["--port", "x"])).toThrow(UsageError);
    expect(() => parseEmulatorArgs(["--token-ttl", "0"])).toThrow(/--token-ttl/);
    expect(() => parseEmulatorArgs(["--nope"])).toThrow(UsageError);
  });

  it("takes --knobs as JSON, checked before the start", () => {
    const patch = { billing: { status: 503, failTimes: 2 } };
    expect(parseEmulatorArgs(["--knobs", JSON.stringify(patch)]).knobs).toEqual(patch);
    expect(() => parseEmulatorArgs(["--knobs", '{"billing":{"failTimes":-1}}'])).toThrow(
      /--knobs: billing\.failTimes: /,
    );
    expect(() => parseEmulatorArgs(["--knobs", "{"])).toThrow(/--knobs must be JSON/);
  });

  it("prints URLs and seed as JSON and serves them", async () => {
    const out: string[] = [];
    const emu = await main(["--port", "0", "--seed", "demo", "--json"], {
      write: (s) => out.push(s),
      signals: false,
    });
    try {
      const printed = JSON.parse(out.join(""));
      expect(printed).toMatchObject({
        identityUrl: emu!.identityUrl,
        billingUrl: emu!.billingUrl,
        tokenTtlSeconds: 3600,
      });
      expect(printed.seed.users.demo.password).toBe(emu!.seed.users.demo.password);
      expect((await fetch(printed.identityUrl)).status).toBe(200);
    } finally {
      await emu?.close();
    }
  });

  it("prints a banner with the credentials users paste", async () => {
    const out: string[] = [];
    const emu = await main(["--token-ttl", "120"], { write: (s) => out.push(s), signals: false });
    try {
      const text = out.join("");
      const s = emu!.seed;
      for (const v of [
        emu!.identityUrl,
        s.users.demo.password,
        s.applicationCredentials.demo.secret,
        s.billing.token,
      ]) {
        expect(text).toContain(v);
      }
      expect(text).toContain("120 s");
    } finally {
      await emu?.close();
    }
  });
});
