#!/usr/bin/env node
// Builds what the package ships: dist/ (tsc), the node_modules/costgate link the policy pack and the
// serialized providers resolve in the checkout, and the policy pack's own dist/ (policies/budget).
//
//   node scripts/build.js            incremental (npm run build, npm test, npm run demo)
//   node scripts/build.js --clean    from nothing (npm pack / npm publish run it as prepack)
const { spawnSync } = require("node:child_process");
const { rmSync } = require("node:fs");
const path = require("node:path");
const { linkSelf } = require("./link-self");

const root = path.resolve(__dirname, "..");
const tsc = require.resolve("typescript/bin/tsc");

function run(args) {
  const r = spawnSync(process.execPath, [tsc, ...args], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv.includes("--clean")) {
  for (const dir of ["dist", "policies/budget/dist"])
    rmSync(path.join(root, dir), { recursive: true, force: true });
}
run(["-p", "tsconfig.json"]);
linkSelf();
run(["-p", "policies/budget/tsconfig.json"]);
