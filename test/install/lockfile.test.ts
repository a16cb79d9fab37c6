/**
 * package-lock.json says what package.json says about the package itself, so that `npm install` in a
 * fresh clone leaves the committed lock as it is (npm rewrites the root entry when they differ).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const json = (name: string) => JSON.parse(readFileSync(resolve(ROOT, name), "utf8"));

describe("package-lock.json", () => {
  it("has package.json's name, version, engines, bin and dependencies in its root entry", () => {
    const pkg = json("package.json");
    const root = json("package-lock.json").packages[""];
    for (const field of [
      "name",
      "version",
      "license",
      "engines",
      "bin",
      "dependencies",
      "devDependencies",
      "peerDependencies",
      "peerDependenciesMeta",
    ]) {
      expect(root[field], field).toEqual(pkg[field]);
    }
  });
});
