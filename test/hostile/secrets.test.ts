/**
 * Secrets in any encoding, and control characters, from a hostile endpoint: it echoes the request (the
 * credential, its headers and its body) raw, JSON-escaped, URL- and form-encoded, in base64 and
 * base64url (alone, and inside a larger base64 blob at each byte alignment), in hex and in an HTML
 * page — one encoding per case, so a form that is not caught cannot hide behind one that is — in
 * Keystone's error body, in GraphQL errors, in a gateway's `{message}` and as an HTML page. The
 * canaries hold `"`, `\`, `+`, `/`, `=`, spaces and non-ASCII letters. Nothing printed, thrown or
 * reported — the CLI's stdout and stderr, the data sources' errors, the policy pack's diagnostics —
 * may hold a canary in any form (test/secrets/canary.ts), a control character or a forged line.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanText, endpointText, safeJson, scrubSecrets, stripControls } from "../../provider/text";
import { startPolicyPack } from "../helpers/analyzer";
import { runCli } from "../helpers/cli";
import { loadDist } from "../helpers/provider-host";
import { CanaryScan, errorTexts, hardCanary, printTally } from "../secrets/canary";
import { ENCODINGS } from "./echo";
import {
  balanceAnswer,
  consumptionAnswer,
  type HostileAnswer,
  type HostileServer,
  type SeenRequest,
  startHostileServer,
  steadyItems,
} from "./server";

type Dist = typeof import("../../provider");

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const scan = new CanaryScan();

/** The credential a request carries: the X-User-Token, or the password or secret of Keystone's body. */
function credentialOf(req: SeenRequest): string {
  const token = req.headers["x-user-token"];
  if (typeof token === "string") return token;
  const auth = (req.json as { auth?: { identity?: Record<string, unknown> } } | undefined)?.auth?.identity;
  const pw = (auth?.["password"] as { user?: { password?: string } } | undefined)?.user?.password;
  const secret = (auth?.["application_credential"] as { secret?: string } | undefined)?.secret;
  return pw ?? secret ?? "";
}

/** echoOf is the text an echoing endpoint sends back: the credential, the headers and the body. */
function echoOf(req: SeenRequest): string {
  return `you sent ${credentialOf(req)} with ${JSON.stringify(req.headers)} and ${req.body}`;
}

type Shape = "keystone" | "graphql" | "gateway" | "html";

function echoing(shape: Shape, encode: (e: string) => string, status: number) {
  return (req: SeenRequest): HostileAnswer => {
    const text = encode(echoOf(req));
    if (shape === "html")
      return { status, headers: { "content-type": "text/html" }, body: `<html><pre>${text}</pre></html>` };
    if (shape === "graphql")
      return { status, body: { errors: [{ message: text }, { message: text }], data: null } };
    if (shape === "gateway") return { status, body: { message: text, detail: text } };
    return { status, body: { error: { code: status, title: text, message: text } } };
  };
}

/** Bytes that move a terminal: C0 but line feed, DEL, C1, bidirectional controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** A hostile text: clear screen, a window title, a carriage return, a forged verdict, an 8-bit CSI, a bidi override. */
const FORGED =
  "denied\x1b[2J\x1b]0;costgate: all clear\x07\r\n✔ all budget rules PASS\x1b[32m\x9b31m\u202eevil\u0085next";

function expectNoControls(where: string, text: string) {
  expect(CONTROL.exec(text)?.[0], `a control character in ${where}: ${JSON.stringify(text)}`).toBeUndefined();
  for (const line of text.split("\n")) {
    expect(line, `a forged line in ${where}`).not.toMatch(/^\W*all budget rules PASS/);
  }
}

let token: string;
let password: string;
let secret: string;

beforeAll(() => {
  token = scan.add("billingToken", hardCanary("billing", true));
  password = scan.add("password", hardCanary("pässwörd"));
  secret = scan.add("appCredSecret", hardCanary("appcred"));
});
afterAll(() => printTally("test/hostile/secrets.test.ts", scan));

/** withServer runs `body` against a hostile endpoint answering with `answer`. */
async function withServer<T>(answer: HostileServer["answer"], body: (s: HostileServer) => Promise<T>) {
  const s = await startHostileServer(answer);
  try {
    return await body(s);
  } finally {
    await s.close();
  }
}

/** pool runs the jobs a few at a time (each starts a process). */
async function pool(jobs: (() => Promise<void>)[], n = 4): Promise<void> {
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await job();
    }),
  );
}

describe("provider/text.ts", () => {
  it("cuts a secret in every form, also inside a larger encoded blob, and keeps the rest", () => {
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      for (const s of [password, secret, token]) {
        const text = `before ${encode(`the body was {"secret": ${JSON.stringify(s)}} and ${s}`)} after`;
        const out = scrubSecrets(text, [s]);
        expect(out.found, name).toBe(true);
        scan.expectClean(`scrubSecrets (${name})`, out.text);
        expect(out.text, name).toMatch(/^before .*after$|^<redacted>$/);
        scan.expectClean(`endpointText (${name})`, endpointText(text, [s]));
      }
    }
  });

  it("cuts long fragments of a secret, and leaves text without one alone", () => {
    const s = password;
    expect(scrubSecrets(`x ${s.slice(3, 15)} y`, [s]).text).toBe("x <redacted> y");
    expect(scrubSecrets(`x ${b64(s.slice(2, 20))} y`, [s]).text).toBe("x <redacted> y");
    expect(scrubSecrets("the request you have made requires authentication", [s])).toEqual({
      text: "the request you have made requires authentication",
      found: false,
    });
  });

  it("strips escape sequences, C0 and C1 controls and bidi overrides, and bounds the length", () => {
    const out = cleanText(FORGED);
    expectNoControls("cleanText", out);
    expect(out).toBe("denied ✔ all budget rules PASSevilnext");
    expect(stripControls("a\r\nb\rc", true)).toBe("a\nb c");
    expect(endpointText("x".repeat(5000))).toHaveLength(301);
    expect(JSON.parse(safeJson({ a: "\x9b\u202e" }))).toEqual({ a: "\x9b\u202e" });
    expectNoControls("safeJson", safeJson({ a: FORGED }));
  });

  it("holds for any secret in any encoding inside any text, in bounded time", () => {
    const encodings = Object.values(ENCODINGS);
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 12, maxLength: 40 }),
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 200 }),
        fc.nat(encodings.length - 1),
        (s, before, after, i) => {
          const local = new CanaryScan();
          local.add("s", s);
          const encode = encodings[i] as (e: string) => string;
          const t0 = performance.now();
          const out = endpointText(`${before}${encode(`${before}${s}${after}`)}${after}`, [s]);
          expect(performance.now() - t0).toBeLessThan(500);
          expect(local.leaks(out)).toEqual([]);
          expectNoControls("endpointText", out);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads at most a bounded part of a huge text, quickly", () => {
    const huge = b64("A".repeat(3_000_000));
    const t0 = performance.now();
    const out = cleanText(huge, { secrets: [password, secret, token], maxLength: 300 });
    expect(out.length).toBeLessThanOrEqual(301);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe("the costgate command against an endpoint that echoes the request", () => {
  const billingArgs = [
    ["balance", "--project-id", "4242", "--json"],
    ["check", "--project-id", "4242", "--min-balance", "1", "--json"],
    ["report", "--project-id", "4242", "--monthly-budget", "100"],
  ];

  async function cli(args: string[], env: Record<string, string>) {
    const r = await runCli(args, { COSTGATE_DEBUG: "1", ...env });
    expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(3);
    scan.expectClean(`CLI stderr (${args[0]})`, r.stderr);
    scan.expectClean(`CLI stdout (${args[0]})`, r.stdout);
    expectNoControls(`CLI stderr (${args[0]})`, r.stderr);
    expectNoControls(`CLI stdout (${args[0]})`, r.stdout);
    return r;
  }

  it("costgate token: Keystone's error body, in every encoding, for a secret and a password", async () => {
    const jobs = Object.entries(ENCODINGS).flatMap(([, encode]) =>
      (["keystone", "html"] as const).map((shape) => async () => {
        await withServer(echoing(shape, encode, shape === "html" ? 400 : 401), async (s) => {
          await cli(["token"], {
            OS_AUTH_URL: s.authUrl,
            OS_APPLICATION_CREDENTIAL_ID: "cred-1",
            OS_APPLICATION_CREDENTIAL_SECRET: secret,
          });
          await cli(["token"], {
            OS_AUTH_URL: s.authUrl,
            OS_USERNAME: "ops",
            OS_USER_DOMAIN_NAME: "Default",
            OS_PASSWORD: password,
            OS_PROJECT_ID: "p1",
          });
        });
      }),
    );
    await pool(jobs);
  }, 180_000);

  it("costgate balance, check and report: GraphQL errors, a gateway's message and an HTML page, in every encoding", async () => {
    const jobs = Object.entries(ENCODINGS).flatMap(([, encode]) =>
      (
        [
          ["graphql", 200],
          ["graphql", 401],
          ["gateway", 403],
          ["html", 401],
        ] as const
      ).map(([shape, status]) => async () => {
        await withServer(echoing(shape, encode, status), async (s) => {
          const args = billingArgs[(shape.length + status) % billingArgs.length] as string[];
          await cli(args, { COSTGATE_BILLING_URL: s.url, COSTGATE_BILLING_TOKEN: token });
        });
      }),
    );
    await pool(jobs);
  }, 180_000);

  it("prints no control character or forged line from a GraphQL or Keystone error", async () => {
    await withServer(
      () => ({ status: 200, body: { errors: [{ message: FORGED }], data: null } }),
      async (s) => {
        for (const args of billingArgs) {
          const r = await cli(args, { COSTGATE_BILLING_URL: s.url, COSTGATE_BILLING_TOKEN: token });
          // the message is shown (in the JSON on stdout, or on stderr), cleaned
          expect(`${r.stdout}${r.stderr}`).toMatch(/denied/);
        }
      },
    );
    await withServer(
      () => ({
        status: 401,
        body: { error: { code: 401, title: FORGED, message: FORGED } },
      }),
      async (s) => {
        const r = await cli(["token"], {
          OS_AUTH_URL: s.authUrl,
          OS_APPLICATION_CREDENTIAL_ID: "cred-1",
          OS_APPLICATION_CREDENTIAL_SECRET: secret,
        });
        expect(r.stderr).toMatch(/Keystone answered 401 .*denied/);
      },
    );
  }, 60_000);
});

describe("the billing data sources against an endpoint that echoes the request", () => {
  it("throw errors with no canary in any form and no control character", async () => {
    const d = loadDist<Dist>();
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      for (const shape of ["graphql", "gateway"] as const) {
        await withServer(echoing(shape, encode, shape === "graphql" ? 200 : 400), async (s) => {
          const e = await d
            .getProjectBalance({ projectId: 4242, billingUrl: s.url, billingToken: token })
            .catch((x: unknown) => x);
          expect(e, name).toBeInstanceOf(Error);
          scan.expectClean(`data source errors (${name}, ${shape})`, errorTexts(e));
        });
      }
    }
    await withServer(
      () => ({ body: { errors: [{ message: FORGED }] } }),
      async (s) => {
        const e = (await d
          .getProjectBalance({ projectId: 4242, billingUrl: s.url, billingToken: token })
          .catch((x: unknown) => x)) as InstanceType<Dist["GraphQLError"]>;
        expect(e).toBeInstanceOf(d.GraphQLError);
        for (const t of [e.message, ...e.messages]) expectNoControls("GraphQLError", t);
      },
    );
  }, 60_000);
});

describe("the policy pack against an endpoint that echoes the request", () => {
  const config = {
    "min-balance": { enforcementLevel: "mandatory", projectId: 4242, minBalance: 1 },
    "billing-available": { enforcementLevel: "advisory", projectId: 4242 },
  };

  it("reports diagnostics with no canary in any form, no control character and no forged line", async () => {
    const cases: [string, HostileServer["answer"]][] = [
      ...(["base64 of a JSON document, offset 1", "JSON-escaped", "URL-encoded", "hex"] as const).map(
        (name) =>
          [name, echoing("graphql", ENCODINGS[name] as (e: string) => string, 200)] as [
            string,
            HostileServer["answer"],
          ],
      ),
      ["control characters", () => ({ body: { errors: [{ message: FORGED }] } })],
    ];
    for (const [name, answer] of cases) {
      await withServer(answer, async (s) => {
        const pack = await startPolicyPack({
          COSTGATE_DEBUG: "1",
          COSTGATE_BILLING_URL: s.url,
          COSTGATE_BILLING_TOKEN: token,
        });
        try {
          await pack.configure(config);
          const diagnostics = await pack.analyzeStack([
            { type: "pulumi:pulumi:Stack", name: "app\x1b[2J\r\n✔ all budget rules PASS", props: {} },
          ]);
          expect(diagnostics.length, name).toBeGreaterThan(0);
          for (const d of diagnostics) {
            scan.expectClean(`policy diagnostics (${name})`, d.message);
            expectNoControls(`policy diagnostics (${name})`, d.message);
          }
          scan.expectClean(`policy pack process output (${name})`, pack.output());
        } finally {
          pack.close();
        }
      });
    }
  }, 120_000);

  it("still passes a well-formed answer through (the happy path is not shredded)", async () => {
    await withServer(
      (req) => (req.operation === "balance" ? balanceAnswer("5") : consumptionAnswer(steadyItems(30))),
      async (s) => {
        const d = loadDist<Dist>();
        const b = await d.getProjectBalance({ projectId: 4242, billingUrl: s.url, billingToken: token });
        expect(b.balance).toBe(5);
      },
    );
  });
});
