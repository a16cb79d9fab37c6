#!/usr/bin/env node
// Builds what the package ships: dist/ (tsc), the node_modules/costgate link the policy pack and the
// serialized providers resolve in the checkout, and the policy pack's own dist/ (policies/budget).
//
//   node scripts/build.js            incremental (npm run build, npm test, npm run demo); outputs whose
//                                    source is gone (a file deleted or moved by a pull) are removed
//   node scripts/build.js --clean    from nothing (npm pack / npm publish run it as prepack)
const { spawnSync } = require("node:child_process");
const { existsSync, readdirSync, rmSync } = require("node:fs");
const path = require("node:path");
const { linkSelf } = require("./link-self");

const root = path.resolve(__dirname, "..");
const tsc = require.resolve("typescript/bin/tsc");
/** Output folders and the source folders they are compiled from. */
const OUTPUTS = [
  { out: "dist", src: ".", folders: ["provider", "cli", "emulator", "bench", "test"] },
  { out: "policies/budget/dist", src: "policies/budget", folders: ["."] },
];

function run(args) {
  const r = spawnSync(process.execPath, [tsc, ...args], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** prune removes compiled files of `out` whose .ts source no longer exists, and unknown folders. */
function prune({ out, src, folders }) {
  const outDir = path.join(root, out);
  if (!existsSync(outDir)) return;
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(outDir, rel), { withFileTypes: true })) {
      const file = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        const known = rel !== "." || folders.includes(entry.name) || folders.includes(".");
        if (known) walk(file);
        else rmSync(path.join(outDir, file), { recursive: true, force: true });
      } else if (/\.(js|d\.ts|js\.map)$/.test(entry.name)) {
        const source = path.join(root, src, file.replace(/\.(js|d\.ts|js\.map)$/, ".ts"));
        if (!existsSync(source)) rmSync(path.join(outDir, file), { force: true });
      }
    }
  };
  walk(".");
}

/** schema/*.schema.json: the config file's and the rate card's JSON Schemas, from their zod schemas (shipped). */
function writeConfigSchema() {
  const { costgateConfigJsonSchema } = require(path.join(root, "dist/provider/budget/config-file.js"));
  const { rateCardJsonSchema } = require(path.join(root, "dist/provider/pricing/rate-card.js"));
  writeSchema("costgate-config.schema.json", costgateConfigJsonSchema());
  writeSchema("rate-card.schema.json", rateCardJsonSchema());
}

/** writeSchema writes schema/NAME when its text changed. */
function writeSchema(name, schema) {
  const file = path.join(root, "schema", name);
  const text = `${JSON.stringify(schema, null, 2)}\n`;
  const { mkdirSync, readFileSync, writeFileSync } = require("node:fs");
  mkdirSync(path.dirname(file), { recursive: true });
  let old = "";
  try {
    old = readFileSync(file, "utf8");
  } catch {
    // first build
  }
  if (old !== text) writeFileSync(file, text);
}

if (process.argv.includes("--clean")) {
  for (const { out } of OUTPUTS) rmSync(path.join(root, out), { recursive: true, force: true });
} else {
  for (const output of OUTPUTS) prune(output);
}
run(["-p", "tsconfig.json"]);
writeConfigSchema();
// schema/pulumi-schema.json: the provider plugin's Pulumi schema, from the TypeScript declarations
writeSchema("pulumi-schema.json", require("./gen-schema").generateSchema());
linkSelf();
run(["-p", "policies/budget/tsconfig.json"]);
