// The costgate command as one file with a V8 code cache, for a faster start.
//
//   node scripts/cli-bundle.js          build dist/bundle/ (run by `npm run build`, after tsc)
//   require("./cli-bundle").load()      what bin/costgate does: the bundle's exports, or undefined
//                                       when it is missing, older than dist/, or unreadable
//
// dist/bundle/costgate.js is dist/cli/main.js and everything it loads, bundled by esbuild;
// costgate.js.cache is V8's code cache for it, made by running the fast paths (token, balance,
// usage) once against the emulator on 127.0.0.1 (offline), so the functions they use are in it.
// Why: a `costgate token` process spent ~0.3 s loading and compiling modules (zod alone ~0.1 s);
// one file saves the lookups and the cache most of the compiling (docs/BENCHMARKS.md).
// A cache from another Node version is rejected by V8 and the bundle is compiled as usual.
// Without esbuild (a devDependency) the build is skipped and bin/costgate uses dist/cli/main.js.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const bundleDir = path.join(root, "dist", "bundle");
const NAME = "costgate.js";

/**
 * upToDate tells whether the dist/ files the bundle was made from are as they were: same size, and
 * not modified since (a rebuild with tsc alone makes them newer; npm's tarballs make them older).
 */
function upToDate(dir) {
  try {
    const inputs = JSON.parse(fs.readFileSync(path.join(dir, "inputs.json"), "utf8"));
    return inputs.every(([file, size, mtimeMs]) => {
      const st = fs.statSync(path.join(root, file));
      return st.size === size && st.mtimeMs <= mtimeMs;
    });
  } catch {
    return false;
  }
}

/** load compiles and runs the bundle in `dir` (with its code cache), or returns undefined. */
function load(dir = bundleDir, { useCache = true } = {}) {
  const file = path.join(dir, NAME);
  if (!upToDate(dir)) return undefined;
  const vm = require("node:vm");
  const Module = require("node:module");
  let script;
  let source;
  try {
    source = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  let cachedData;
  if (useCache) {
    try {
      cachedData = fs.readFileSync(`${file}.cache`);
    } catch {
      // no cache: compiled from source
    }
  }
  const mod = { exports: {}, id: file, filename: file, loaded: false };
  try {
    script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
    const wrapper = script.runInThisContext();
    wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dir);
  } catch {
    return undefined; // half-written by a concurrent build, say: use dist/cli/main.js
  }
  return { cli: mod.exports, script, cacheFile: `${file}.cache` };
}

/**
 * warm runs the fast paths of the bundle in `dir` against the emulator (dist/emulator, on
 * 127.0.0.1 in this process, offline) and writes the code cache: what ran is in it.
 */
async function warm(dir) {
  const loaded = load(dir, { useCache: false });
  if (!loaded) throw new Error(`no up-to-date bundle in ${dir}`);
  const { startEmulator } = require(path.join(root, "dist", "emulator"));
  const emu = await startEmulator({ port: 0 });
  const cred = emu.seed.applicationCredentials.demo;
  Object.assign(process.env, {
    OS_AUTH_URL: emu.identityUrl,
    OS_APPLICATION_CREDENTIAL_ID: cred.id,
    OS_APPLICATION_CREDENTIAL_SECRET: cred.secret,
    COSTGATE_BILLING_URL: emu.billingUrl,
    COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
  });
  const runs = [
    ["token"],
    ["token", "--json"],
    ["balance", "--project-id", "4242"],
    ["usage", "--project-id", "4242", "--from", "2026-01-01", "--to", "2026-01-31"],
  ];
  try {
    for (const args of runs) await loaded.cli.main(["node", "costgate", ...args]);
  } finally {
    await emu.close();
  }
  process.exitCode = 0;
  fs.writeFileSync(loaded.cacheFile, loaded.script.createCachedData());
}

/** build bundles dist/cli/main.js into a fresh directory, warms it, and swaps it in. */
function build() {
  let esbuild;
  try {
    esbuild = require("esbuild");
  } catch {
    process.stderr.write("cli-bundle: esbuild is not installed; bin/costgate will use dist/cli/main.js\n");
    fs.rmSync(bundleDir, { recursive: true, force: true });
    return;
  }
  const tmp = `${bundleDir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const result = esbuild.buildSync({
    entryPoints: [path.join(root, "dist", "cli", "main.js")],
    outfile: path.join(tmp, NAME),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    keepNames: true,
    // read at run time from the package root (dist/bundle is as deep as dist/cli)
    external: ["../../package.json", "@pulumi/*"],
    metafile: true,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => p.startsWith("dist/"))
    .map((p) => {
      const st = fs.statSync(path.join(root, p));
      return [p, st.size, st.mtimeMs];
    });
  fs.writeFileSync(path.join(tmp, "inputs.json"), `${JSON.stringify(inputs)}\n`);
  const { spawnSync } = require("node:child_process");
  const r = spawnSync(process.execPath, [__filename, "--warm", tmp], {
    cwd: tmp,
    env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent" },
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 60_000,
  });
  if (!fs.existsSync(path.join(tmp, `${NAME}.cache`))) {
    process.stderr.write(`cli-bundle: no code cache (${r.error?.message ?? String(r.stderr).trim()})\n`);
  }
  // swap: for a moment there is no bundle, and bin/costgate uses dist/cli/main.js
  const old = `${bundleDir}.old-${process.pid}`;
  if (fs.existsSync(bundleDir)) fs.renameSync(bundleDir, old);
  fs.renameSync(tmp, bundleDir);
  fs.rmSync(old, { recursive: true, force: true });
}

module.exports = { load, build, warm };

if (require.main === module) {
  if (process.argv[2] === "--warm") {
    warm(path.resolve(process.argv[3])).catch((e) => {
      process.stderr.write(`${e.stack ?? e}\n`);
      process.exitCode = 1;
    });
  } else {
    build();
  }
}
