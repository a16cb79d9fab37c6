/**
 * Which proxy a request goes through (provider/http/proxy.ts): the environment as curl, requests and
 * Go read it, NO_PROXY in its usual forms, and proxy URLs checked without echoing their credentials.
 */
import { describe, expect, it } from "vitest";
import { isConfigError } from "../../provider/errors";
import { bypassesProxy, parseProxy, proxyFor } from "../../provider/http";

const https = new URL("https://api.example.com/bill/graphql");
const http = new URL("http://keystone.internal:5000/v3");

describe("proxyFor", () => {
  it("reads https_proxy / HTTPS_PROXY for https URLs and http_proxy / HTTP_PROXY for http ones", () => {
    const env = { HTTPS_PROXY: "http://secure-proxy:3128", HTTP_PROXY: "http://plain-proxy:8080" };
    expect(proxyFor(https, undefined, env)).toMatchObject({
      shown: "http://secure-proxy:3128",
      from: "HTTPS_PROXY",
    });
    expect(proxyFor(http, undefined, env)).toMatchObject({
      shown: "http://plain-proxy:8080",
      from: "HTTP_PROXY",
    });
  });

  it("prefers the lower-case variable, as curl does", () => {
    const env = { https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:2" };
    expect(proxyFor(https, undefined, env)?.from).toBe("https_proxy");
  });

  it("falls back to all_proxy / ALL_PROXY, and to nothing", () => {
    expect(proxyFor(https, undefined, { ALL_PROXY: "http://all:3128" })?.from).toBe("ALL_PROXY");
    expect(proxyFor(https, undefined, { HTTP_PROXY: "http://plain:8080" })).toBeUndefined();
    expect(proxyFor(https, undefined, {})).toBeUndefined();
    expect(proxyFor(https, undefined, { HTTPS_PROXY: "  " })).toBeUndefined();
  });

  it("ignores upper-case HTTP_PROXY in a CGI program (httpoxy), but not http_proxy", () => {
    expect(proxyFor(http, undefined, { REQUEST_METHOD: "GET", HTTP_PROXY: "http://evil:1" })).toBeUndefined();
    expect(proxyFor(http, undefined, { REQUEST_METHOD: "GET", http_proxy: "http://ok:1" })?.from).toBe(
      "http_proxy",
    );
  });

  it("takes the caller's proxy over the environment, and `false` for none", () => {
    const env = { HTTPS_PROXY: "http://env:1" };
    expect(proxyFor(https, "http://given:2", env)).toMatchObject({
      shown: "http://given:2",
      from: "transport.proxy",
    });
    expect(proxyFor(https, false, env)).toBeUndefined();
  });

  it("reaches NO_PROXY hosts directly, also with the caller's proxy", () => {
    expect(
      proxyFor(https, undefined, { HTTPS_PROXY: "http://p:1", NO_PROXY: "example.com" }),
    ).toBeUndefined();
    expect(proxyFor(https, "http://p:1", { no_proxy: ".example.com" })).toBeUndefined();
    expect(proxyFor(https, undefined, { HTTPS_PROXY: "http://p:1", NO_PROXY: "other.com" })?.from).toBe(
      "HTTPS_PROXY",
    );
  });

  it("prefers no_proxy over NO_PROXY", () => {
    const env = { HTTPS_PROXY: "http://p:1", no_proxy: "other.com", NO_PROXY: "example.com" };
    expect(proxyFor(https, undefined, env)?.from).toBe("HTTPS_PROXY");
  });
});

describe("bypassesProxy (NO_PROXY)", () => {
  const at = (u: string) => new URL(u);
  it.each([
    ["*", "https://anything.example/", true],
    ["example.com", "https://example.com/", true],
    ["example.com", "https://api.example.com/", true],
    ["example.com", "https://badexample.com/", false],
    [".example.com", "https://api.example.com/", true],
    ["*.example.com", "https://api.example.com/", true],
    ["EXAMPLE.com", "https://Api.Example.COM/", true],
    ["localhost,127.0.0.1", "http://127.0.0.1:5000/v3", true],
    ["localhost 127.0.0.1", "http://127.0.0.1:5000/v3", true],
    ["127.0.0.1", "http://127.0.0.2:5000/v3", false],
    ["10.0.0.0/8", "http://10.20.30.40/", true],
    ["10.0.0.0/8", "http://11.0.0.1/", false],
    ["10.0.0.0/8", "http://ten.example/", false],
    ["::1", "http://[::1]:5000/", true],
    ["[::1]", "http://[::1]:5000/", true],
    ["[::1]:5000", "http://[::1]:5000/", true],
    ["[::1]:5001", "http://[::1]:5000/", false],
    ["fd00::/8", "http://[fd12::1]/", true],
    ["0:0:0:0:0:0:0:1", "http://[::1]/", true],
    ["example.com:443", "https://example.com/", true],
    ["example.com:8443", "https://example.com/", false],
    ["keystone.internal:5000", "http://keystone.internal:5000/v3", true],
    ["", "https://example.com/", false],
    [" , ,", "https://example.com/", false],
  ])("%j for %s: %s", (noProxy, url, expected) => {
    expect(bypassesProxy(at(url), noProxy)).toBe(expected);
  });
});

describe("parseProxy", () => {
  it("reads a proxy without a scheme as http://, and keeps its credentials for the agent only", () => {
    const p = parseProxy("user:s3cr3t@proxy.corp:3128", "HTTPS_PROXY");
    expect(p.url).toBe("http://user:s3cr3t@proxy.corp:3128/");
    expect(p.shown).toBe("http://proxy.corp:3128");
    expect(p.from).toBe("HTTPS_PROXY");
  });

  it("accepts https:// proxies", () => {
    expect(parseProxy("https://proxy.corp:443", "x").shown).toBe("https://proxy.corp");
  });

  it.each([
    ["socks5://user:s3cr3t@proxy:1080", /socks5:\/\/ proxies are not supported/],
    ["http://user:s3cr3t@[bad", /is not a proxy URL/],
  ])("refuses %s naming the variable, never the password", (raw, message) => {
    let error: unknown;
    try {
      parseProxy(raw, "HTTPS_PROXY");
    } catch (e) {
      error = e;
    }
    expect(isConfigError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^HTTPS_PROXY: /);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("s3cr3t");
  });
});
