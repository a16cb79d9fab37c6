/**
 * What the benchmark measures: the package as users get it. `npm pack`'s tarball (of the built
 * checkout) installed with npm into a fresh program folder next to @pulumi/pulumi and @pulumi/policy;
 * the command is that install's `node_modules/.bin/costgate`, the library is required from there.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** An installed copy of the package. */
export interface Installed {
  /** The program folder (its package.json and node_modules). */
  program: string;
  /** `node_modules/.bin/costgate` of the program, as a shell runs `costgate` there. */
  bin: string;
  /** The installed package's folder (`node_modules/costgate`). */
  packageDir: string;
  /** require() as the program's own code would call it. */
  require: NodeJS.Require;
  /** The tarball's size in bytes. */
  tarballBytes: number;
  remove(): void;
}

/** installPackage packs the built checkout at `root` and installs the tarball into a temporary program. */
export function installPackage(root: string, log: (line: string) => void): Installed {
  const { packPackage, installInto } = require(join(root, "scripts", "pack-install.js")) as {
    packPackage(dest: string, dir?: string): string;
    installInto(dir: string, specs: string[]): string;
  };
  const dir = mkdtempSync(join(tmpdir(), "costgate-bench-install-"));
  log("npm pack, then npm install of the tarball into a fresh program...");
  const tarball = packPackage(dir);
  const program = installInto(join(dir, "program"), [tarball, "@pulumi/pulumi", "@pulumi/policy"]);
  const { statSync } = require("node:fs") as typeof import("node:fs");
  return {
    program,
    bin: join(program, "node_modules", ".bin", process.platform === "win32" ? "costgate.cmd" : "costgate"),
    packageDir: join(program, "node_modules", "costgate"),
    require: createRequire(join(program, "package.json")),
    tarballBytes: statSync(tarball).size,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
