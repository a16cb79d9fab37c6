/**
 * What the command's V8 startup snapshot (scripts/cli-snapshot.js) runs before it is taken: the
 * modules of the commands that must start fast, and the code of `costgate token` that needs no
 * request — declaring and parsing the command line, validating a credential, building the request
 * body and parsing a token body — on made-up values. V8 keeps the compiled code of whatever ran
 * in the snapshot, and zod its parsers, so a run does not build them again (docs/BENCHMARKS.md).
 * Nothing is sent, and nothing read from the environment, the terminal or the clock is kept.
 */
import { CommanderError } from "commander";
import { COMPILE_AT } from "../provider/compiled";
import { authBody } from "../provider/identity/auth";
import { toTokenInfo } from "../provider/identity/results";
import { parseTokenJson } from "../provider/identity/tokens";
import { resolveIdentitySettings } from "../provider/settings";
import type { buildProgram as BuildProgram } from "./main";

/** A token body shaped as Keystone's (made-up values). */
const SAMPLE_TOKEN_BODY = {
  token: {
    methods: ["application_credential"],
    user: { domain: { id: "default", name: "Default" }, id: "u0", name: "warm", password_expires_at: null },
    audit_ids: ["a0"],
    expires_at: "2000-01-01T01:00:00.000000Z",
    issued_at: "2000-01-01T00:00:00.000000Z",
    project: { domain: { id: "default", name: "Default" }, id: "p0", name: "warm" },
    is_domain: false,
    roles: [{ id: "r0", name: "member" }],
    catalog: [
      {
        endpoints: [
          { id: "e0", interface: "public", region_id: "r", url: "http://127.0.0.1/v3", region: "r" },
        ],
        id: "s0",
        type: "identity",
        name: "keystone",
      },
    ],
    application_credential: { id: "c0", name: "warm", restricted: true },
  },
};

/** warm loads the fast commands' modules and runs their request-free code once. */
export async function warm(buildProgram: typeof BuildProgram): Promise<void> {
  await Promise.all([import("./commands/token"), import("./commands/billing"), import("./commands/check")]);

  const program = buildProgram(() => {});
  const silent = { writeOut: () => {}, writeErr: () => {} };
  for (const command of [program, ...program.commands]) command.exitOverride().configureOutput(silent);
  for (const args of [["--version"], ["token", "--help"], ["balance", "--help"], ["usage", "--help"]]) {
    try {
      program.parse(args, { from: "user" });
    } catch (e) {
      if (!(e instanceof CommanderError)) throw e;
    }
  }

  // until the credential's and the token body's parsers are compiled (provider/compiled.ts), so
  // that no run compiles them and a run's one parse of each is the compiled one
  for (let i = 0; i < COMPILE_AT; i++) {
    const args = {
      authUrl: "http://127.0.0.1/v3",
      applicationCredentialId: "c0",
      applicationCredentialSecret: "s",
    };
    authBody(resolveIdentitySettings(args, {}).auth);
    const parsed = parseTokenJson(SAMPLE_TOKEN_BODY);
    if (!parsed.success) throw new Error("warm: the sample token body does not parse");
    toTokenInfo(parsed.data);
  }
}
