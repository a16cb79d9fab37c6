// The V8 startup snapshot of the costgate command: dist/bundle/costgate.blob.
//
//   node --snapshot-blob DIR/costgate.blob --build-snapshot scripts/cli-snapshot.js
//        with COSTGATE_BUNDLE_DIR=DIR (run by scripts/cli-bundle.js, after the bundle is made)
//   node --snapshot-blob DIR/costgate.blob -- ARGS...
//        what bin/costgate's shell part runs when the blob was built by the same node binary
//
// Building runs the bundle (DIR/costgate.js), loads the modules of the commands that must start fast
// (token, balance, usage, check) and runs their code that needs no request once (cli/warm.ts), then
// node writes its heap, compiled code included, to the blob.
// A run starts from that heap: nothing is read, compiled or initialized again, so `costgate token`
// starts about as fast as `node -e 0` (docs/BENCHMARKS.md). Only node built-ins can be required while
// building, and not all of them: node:http fails there (provider/http.ts loads it at the first request).
// Nothing that depends on the run (environment, terminal, clock) is computed while building.
//
// At run time the blob's own path locates the package. When dist/ changed after the blob was made
// (a tsc-only rebuild), the command runs from dist/cli/main.js instead, as bin/costgate would.

const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const vm = require("node:vm");
const v8 = require("node:v8");

/** runFile runs a CommonJS file with the given require and returns its exports. */
function runFile(file, requireFn) {
  const mod = { exports: {} };
  const wrapper = vm.runInThisContext(Module.wrap(fs.readFileSync(file, "utf8")), { filename: file });
  wrapper.call(mod.exports, mod.exports, requireFn, mod, file, path.dirname(file));
  return mod.exports;
}

const buildDir = process.env.COSTGATE_BUNDLE_DIR;
if (!buildDir) throw new Error("cli-snapshot: set COSTGATE_BUNDLE_DIR to the bundle's directory");

// While building only built-ins can be required; at run time, the bundle's own require.
let bundleRequire = require;
const cli = runFile(path.join(buildDir, "costgate.js"), (id) => bundleRequire(id));
const { upToDate } = runFile(path.join(__dirname, "bundle-inputs.js"), require);
// run once so that its code is compiled in the snapshot (each run checks again)
upToDate(buildDir);
let prepared = false;
cli.prepareSnapshot().then(() => {
  prepared = true;
});

/** blobDir is the directory of the blob this process started from (its --snapshot-blob). */
function blobDir() {
  const args = process.execArgv;
  const i = args.indexOf("--snapshot-blob");
  const blob = i >= 0 ? args[i + 1] : args.find((a) => a.startsWith("--snapshot-blob=")).slice(16);
  return path.dirname(path.resolve(blob));
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  if (!prepared) throw new Error("cli-snapshot: the snapshot was taken before the commands were loaded");
  // process.argv is [node, ...arguments]: there is no script
  const argv = [process.argv[0], "costgate", ...process.argv.slice(1)];
  const dir = blobDir();
  const debug = process.env.COSTGATE_DEBUG === "1";
  if (upToDate(dir)) {
    if (debug)
      process.stderr.write(`costgate: started from the snapshot ${path.join(dir, "costgate.blob")}\n`);
    bundleRequire = Module.createRequire(path.join(dir, "costgate.js"));
    cli.main(argv);
    return;
  }
  if (debug) process.stderr.write("costgate: the snapshot is older than dist/; running dist/cli/main.js\n");
  Module.createRequire(path.join(dir, "costgate.js"))("../cli/main.js").main(argv);
});
