#!/usr/bin/env node
// A release archive of the provider plugin, as the Pulumi engine downloads it from the schema's
// pluginDownloadURL: pulumi-resource-costgate-v<version>-<os>-<arch>.tar.gz, holding an executable
// `pulumi-resource-costgate` at its root (a shell launcher: the engine runs it from the folder it unpacks to)
// next to an npm install of the package and @pulumi/pulumi. It needs Node 20.18.1 or later on PATH.
//
//   node scripts/plugin-archive.js [--os linux] [--arch amd64] [--from <installed folder>] [--out <folder>]
//
// Without --from, the package is packed and installed into a scratch folder first (run `npm run build` before).
const { execFileSync } = require("node:child_process");
const { chmodSync, mkdtempSync, readFileSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");
const { installInto, packPackage } = require("./pack-install");

const root = path.resolve(__dirname, "..");
const ARCH = { x64: "amd64", arm64: "arm64" };

function option(argv, name, fallback) {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
}

/** LAUNCHER runs the installed plugin with the node on PATH, from wherever the archive was unpacked. */
const LAUNCHER = `#!/bin/sh
# pulumi-resource-costgate: the costgate provider plugin (needs Node 20.18.1 or later on PATH)
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
exec node "$here/node_modules/costgate/bin/pulumi-resource-costgate" "$@"
`;

/** archive writes the archive and returns its path. */
function archive({
  os = process.platform,
  arch = ARCH[process.arch] ?? process.arch,
  from,
  out = root,
} = {}) {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  let dir = from;
  if (!dir) {
    const tmp = mkdtempSync(path.join(tmpdir(), "costgate-plugin-archive-"));
    dir = installInto(path.join(tmp, "plugin"), [packPackage(tmp), "@pulumi/pulumi"]);
  }
  const launcher = path.join(dir, "pulumi-resource-costgate");
  writeFileSync(launcher, LAUNCHER);
  chmodSync(launcher, 0o755);
  const file = path.join(out, `pulumi-resource-costgate-v${version}-${os}-${arch}.tar.gz`);
  execFileSync("tar", ["-czf", file, "-C", dir, "pulumi-resource-costgate", "package.json", "node_modules"]);
  return file;
}

module.exports = { archive, LAUNCHER };
if (require.main === module) {
  const argv = process.argv.slice(2);
  const file = archive({
    os: option(argv, "os", undefined),
    arch: option(argv, "arch", undefined),
    from: option(argv, "from", undefined),
    out: option(argv, "out", undefined),
  });
  process.stdout.write(`${file}\n`);
}
