/**
 * A Keystone restarted between two `up`s loses nothing that matters: a token issued before still
 * validates and its resource still reads, a token revoked before stays revoked, and delete still
 * revokes. The test runs its own Keystone (keystone.sh start/restart/stop), so the shared one is
 * never interrupted.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { KeystoneEnv } from "../keystone/env";
import "../keystone/env";
import { checkToken, issueToken, revokeToken } from "../../provider/identity/tokens";
import { type ProviderHost, startProviderHost } from "../helpers/provider-host";
import { appCredInputs, URN } from "./lifecycle";

const run = promisify(execFile);
const SCRIPT = resolve(__dirname, "../keystone/keystone.sh");
const available = inject("keystone") !== null;

describe.skipIf(!available)("a token across a Keystone restart (same config dir and fernet keys)", () => {
  let dir = "";
  let ks: KeystoneEnv;
  let host: ProviderHost;
  const keystone = (cmd: "start" | "restart" | "stop") =>
    run("bash", [SCRIPT, cmd, dir], {
      timeout: 170_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, KEYSTONE_WATCH_PID: String(process.pid) },
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "costgate-keystone-restart-"));
    await keystone("start");
    ks = JSON.parse(await readFile(join(dir, "env.json"), "utf8"));
    host = await startProviderHost();
    await host.configure({});
  }, 180_000);
  afterAll(async () => {
    await host?.close();
    if (dir) {
      await keystone("stop").catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("still validates, reads and revokes what was issued before; revoked stays revoked", async () => {
    const ep = { authUrl: ks.authUrl };
    const target = { authUrl: ks.authUrl, appCredId: ks.appCredId, appCredSecret: ks.appCredSecret };
    const inputs = await appCredInputs(host, target);
    const kept = await host.create(URN, inputs);
    const revoked = await host.create(URN, inputs);
    await revokeToken(ep, String(revoked.properties.token));

    const { stderr } = await keystone("restart");
    expect(stderr).toMatch(/restarted/);
    const after = JSON.parse(await readFile(join(dir, "env.json"), "utf8")) as KeystoneEnv;
    expect(after.authUrl).toBe(ks.authUrl);
    expect(after.pid).not.toBe(ks.pid);

    expect(await checkToken(ep, String(kept.properties.token))).toBe(true);
    const read = await host.read(kept.id, URN, kept.properties);
    expect(read.id).toBe(kept.id);
    expect(read.properties.expiresAt).toBe(kept.properties.expiresAt);
    expect((await host.read(revoked.id, URN, revoked.properties)).id).toBe("");
    // The application credential survived too: a new token can be issued.
    const fresh = await issueToken(ep, {
      type: "application_credential",
      applicationCredentialId: ks.appCredId,
      applicationCredentialSecret: ks.appCredSecret,
    });
    expect(await checkToken(ep, fresh.id)).toBe(true);

    await host.delete(kept.id, URN, kept.properties);
    expect(await checkToken(ep, String(kept.properties.token))).toBe(false);
    await revokeToken(ep, fresh.id);
  }, 60_000);
});
