// What a user gets: the tarball `npm pack` makes, installed with npm into a fresh program folder.
// Used by the install tests (test/install) and the benchmarks (bench/), which both prove the
// installed package rather than the checkout.
//
//   const { packPackage, installInto } = require("./pack-install");
//   const tarball = packPackage(tmp);              // builds nothing: run `npm run build` first
//   installInto(dir, [tarball, "@pulumi/pulumi"]); // peers at the checkout's versions, from npm's cache
const { execFileSync } = require("node:child_process");
const { mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The version of a package installed in the checkout, so that an install finds it in npm's cache. */
function checkoutVersion(name) {
  const v = JSON.parse(
    readFileSync(require.resolve(`${name}/package.json`, { paths: [root] }), "utf8"),
  ).version;
  return String(v).replace(/^v/, "");
}

/** packPackage runs `npm pack` on a directory (the package by default) into `dest` and returns the tarball's path. */
function packPackage(dest, dir = root) {
  mkdirSync(dest, { recursive: true });
  // dist/ is already built (npm test and npm run bench build first); prepack would rebuild it from
  // nothing under the feet of suites running alongside
  const out = execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", dest], {
    cwd: dir,
    shell: process.platform === "win32", // npm.cmd
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [info] = JSON.parse(out);
  return path.join(dest, info.filename);
}

/**
 * installInto makes `dir` a fresh npm project (unless it has a package.json) and installs `specs`
 * into it: tarball paths as they are, package names at the checkout's versions (npm's cache serves
 * them offline after `npm ci`).
 */
function installInto(dir, specs) {
  mkdirSync(dir, { recursive: true });
  try {
    readFileSync(path.join(dir, "package.json"));
  } catch {
    writeFileSync(
      path.join(dir, "package.json"),
      `${JSON.stringify({ name: path.basename(dir).toLowerCase(), private: true }, null, 2)}\n`,
    );
  }
  const resolved = specs.map((s) =>
    s.endsWith(".tgz") || s.includes("@", 1) ? s : `${s}@${checkoutVersion(s)}`,
  );
  execFileSync(
    npm,
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...resolved],
    {
      cwd: dir,
      shell: process.platform === "win32",
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, npm_config_update_notifier: "false" },
    },
  );
  return dir;
}

module.exports = { packPackage, installInto, checkoutVersion };
