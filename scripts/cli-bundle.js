// The costgate command as one file with a V8 code cache and a V8 startup snapshot, for a faster start.
//
//   node scripts/cli-bundle.js          build dist/bundle/ (run by `npm run build`, after tsc)
//   require("./cli-bundle").load()      what bin/costgate does when node runs it: the bundle's
//                                       exports, or undefined when it is missing, older than dist/,
//                                       or unreadable
//
// costgate.blob (+ costgate.blob.node) is the startup snapshot of the bundle (scripts/cli-snapshot.js),
// which bin/costgate starts from when sh runs it; it is made last, after the bundle is in place.
// dist/bundle/costgate.js is dist/cli/main.js and everything it loads, bundled by esbuild;
// costgate.js.cache is V8's code cache for it, made by running the fast paths (token, balance,
// usage) once against the emulator on 127.0.0.1 (offline), so the functions they use are in it.
// Why: a `costgate token` process spent ~0.3 s loading and compiling modules (zod alone ~0.1 s);
// one file saves the lookups and the cache most of the compiling (docs/BENCHMARKS.md).
// A cache from another Node version is rejected by V8 and the bundle is compiled as usual.
// Without esbuild (a devDependency) the build is skipped and bin/costgate uses dist/cli/main.js.
const fs = require("node:fs");
const path = require("node:path");
const { upToDate } = require("./bundle-inputs");

const root = path.resolve(__dirname, "..");
const bundleDir = path.join(root, "dist", "bundle");
const NAME = "costgate.js";

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

/**
 * zod loads its messages in 64 languages (`z.locales`) with itself; costgate uses English only (zod's
 * default, loaded on its own). In the bundle `z.locales` holds English alone: about 320 KB less code,
 * and a smaller startup snapshot, which node reads back on every run (docs/BENCHMARKS.md).
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.cjs$/ }, (args) => {
      if (!args.importer.includes(`${path.sep}zod${path.sep}`)) return undefined;
      return {
        path: path.resolve(path.dirname(args.importer), "../locales/en.cjs"),
        namespace: "zod-locales",
      };
    });
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `exports.en = require(${JSON.stringify(args.path)}).default;\n`,
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

/** build bundles dist/cli/main.js into a fresh directory, warms it, and swaps it in. */
async function build() {
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
  const result = await esbuild.build({
    entryPoints: [path.join(root, "dist", "cli", "main.js")],
    outfile: path.join(tmp, NAME),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    keepNames: true,
    // package.json is bundled too (for --version), and listed among the inputs
    external: ["@pulumi/*"],
    plugins: [zodEnglishOnly],
    metafile: true,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => p.startsWith("dist/") || p === "package.json")
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
  snapshot(bundleDir);
}

/**
 * snapshot builds dist/bundle/costgate.blob, the V8 startup snapshot of the bundle
 * (scripts/cli-snapshot.js), and beside it costgate.blob.node: the real path of the node binary that
 * built it, with that binary's modification time. bin/costgate starts from the blob only with that
 * same binary (a blob is tied to one node build). Without a blob, bin/costgate runs the bundle.
 */
function snapshot(dir) {
  const { spawnSync } = require("node:child_process");
  const blob = path.join(dir, "costgate.blob");
  const building = `${blob}.tmp-${process.pid}`;
  const r = spawnSync(
    process.execPath,
    ["--snapshot-blob", building, "--build-snapshot", path.join(__dirname, "cli-snapshot.js")],
    {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", COSTGATE_BUNDLE_DIR: dir },
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 60_000,
    },
  );
  if (r.status !== 0 || !fs.existsSync(building)) {
    fs.rmSync(building, { force: true });
    // node's own warnings about built-ins in snapshots are noise; the error is at the end
    const why = String(r.stderr ?? r.error?.message ?? "")
      .trim()
      .split("\n")
      .slice(-3)
      .join("\n");
    process.stderr.write(`cli-bundle: no startup snapshot; bin/costgate runs the bundle (${why})\n`);
    return;
  }
  fs.renameSync(building, blob);
  // costgate.blob.node: the node binary's path, with the binary's own modification time, so that the
  // launcher can tell (with shell built-ins) a binary replaced in place by an upgrade, whose new time
  // may be older than the blob (dpkg keeps the package's times)
  const node = fs.realpathSync(process.execPath);
  const stamp = `${blob}.node`;
  fs.writeFileSync(stamp, `${node}\n`);
  const copied = spawnSync("touch", ["-r", node, stamp]);
  if (copied.status !== 0) {
    const st = fs.statSync(node);
    fs.utimesSync(stamp, st.atime, st.mtime);
  }
}

module.exports = { load, build, warm, snapshot };

if (require.main === module) {
  if (process.argv[2] === "--warm") {
    warm(path.resolve(process.argv[3])).catch((e) => {
      process.stderr.write(`${e.stack ?? e}\n`);
      process.exitCode = 1;
    });
  } else {
    build().catch((e) => {
      process.stderr.write(`cli-bundle: ${e.stack ?? e}\n`);
      process.exitCode = 1;
    });
  }
}
