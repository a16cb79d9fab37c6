import { describe, expect, it } from "vitest";
import { isConfigError } from "../../provider/errors";
import { normalizeAuthUrl, tokensUrl } from "../../provider/identity/urls";

describe("normalizeAuthUrl", () => {
  it.each([
    ["https://identity.example/v3", "https://identity.example/v3"],
    ["https://identity.example/v3/", "https://identity.example/v3"],
    ["https://identity.example:5000", "https://identity.example:5000/v3"],
    ["https://identity.example:5000/", "https://identity.example:5000/v3"],
    ["https://cloud.example/identity", "https://cloud.example/identity/v3"],
    ["  http://127.0.0.1:5000/v3?x=1  ", "http://127.0.0.1:5000/v3"],
  ])("%s -> %s", (input, want) => {
    expect(normalizeAuthUrl(input)).toBe(want);
  });

  it.each([
    ["https://identity.example/v2.0", /v2\.0.*\/v3/],
    ["not a url", /not a URL/],
    ["ftp://identity.example/v3", /http\(s\)/],
    ["https://user:pw@identity.example/v3", /credentials/],
  ])("refuses %s", (input, message) => {
    try {
      normalizeAuthUrl(input);
      expect.unreachable();
    } catch (e) {
      expect(isConfigError(e)).toBe(true);
      expect((e as Error).message).toMatch(/^authUrl: /);
      expect((e as Error).message).toMatch(message);
      expect((e as Error).message).not.toContain("pw@");
    }
  });

  it("builds the tokens URL", () => {
    expect(tokensUrl("https://identity.example/v3")).toBe("https://identity.example/v3/auth/tokens");
  });
});
