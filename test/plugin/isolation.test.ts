/**
 * The plugin stays out of everyone else's way: nothing of provider/plugin loads with the library, the
 * dynamic provider's implementation or the CLI; and a plugin started where @pulumi/pulumi is missing says
 * what to install, on stderr, with nothing on stdout (where the engine reads the port).
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../helpers/provider-host";

it("the library, token-impl and the CLI load nothing of provider/plugin", () => {
  const code = `
    require("./dist/provider/index.js");
    require("./dist/provider/resources/token-impl.js");
    require("./dist/cli/main.js");
    const loaded = Object.keys(require.cache).filter((f) => f.includes("/dist/provider/plugin/"));
    process.stdout.write(JSON.stringify(loaded));`;
  expect(JSON.parse(execFileSync(process.execPath, ["-e", code], { cwd: ROOT, encoding: "utf8" }))).toEqual(
    [],
  );
});

it("without @pulumi/pulumi: exit 2, what to install on stderr, nothing on stdout", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "costgate-plugin-alone-"));
  try {
    for (const p of ["bin/pulumi-resource-costgate", "dist/provider", "schema", "package.json"]) {
      cpSync(join(ROOT, p), join(tmp, "costgate", p), { recursive: true });
    }
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) => {
      const child = execFile(
        join(tmp, "costgate/bin/pulumi-resource-costgate"),
        ["127.0.0.1:1"],
        { env: { PATH: process.env.PATH ?? "" }, timeout: 20_000 },
        (_e, stdout, stderr) => ok({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(r.stdout).toBe("");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs @pulumi\/pulumi.*npm install -g costgate @pulumi\/pulumi/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
