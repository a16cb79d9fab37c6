// Links node_modules/costgate to this checkout, so that the serialized dynamic providers
// (which load their implementation with require("costgate/...")) resolve here as they do
// in a user's program. Runs from `npm install` (prepare) in a checkout only.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "costgate");
if (!fs.existsSync(path.join(root, "node_modules"))) process.exit(0);
try {
  if (fs.realpathSync(link) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {}
fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
