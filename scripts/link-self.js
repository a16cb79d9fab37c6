// Links node_modules/costgate to this checkout, so that the serialized dynamic providers
// (which load their implementation with require("costgate/...")) resolve here as they do
// in a user's program. Runs after the build, and from the tests that start a provider host.
const fs = require("node:fs");
const path = require("node:path");

function linkSelf() {
  const root = path.resolve(__dirname, "..");
  const link = path.join(root, "node_modules", "costgate");
  if (!fs.existsSync(path.join(root, "node_modules"))) return;
  try {
    if (fs.realpathSync(link) === root) return;
  } catch {
    // missing or dangling
  }
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
}

if (require.main === module) linkSelf();
module.exports = { linkSelf };
