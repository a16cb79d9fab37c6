// Whether dist/bundle (the bundled command, its code cache and its startup snapshot) is up to date
// with the dist/ files it was made from. Shared by scripts/cli-bundle.js (bin/costgate run by node)
// and scripts/cli-snapshot.js (bin/costgate run from the snapshot); requires only node built-ins.
const fs = require("node:fs");
const path = require("node:path");

/**
 * upToDate tells whether the dist/ files listed in `dir`/inputs.json (paths relative to the package
 * root, two levels above `dir`) are as they were: same size, and not modified since (a rebuild with
 * tsc alone makes them newer; npm's tarballs make them older).
 */
function upToDate(dir) {
  const root = path.resolve(dir, "..", "..");
  try {
    const inputs = JSON.parse(fs.readFileSync(path.join(dir, "inputs.json"), "utf8"));
    return inputs.every(([file, size, mtimeMs]) => {
      const st = fs.statSync(path.join(root, file));
      // 1 ms of slack: a copy that keeps times (cp -p, npm's tarballs) may round them up
      return st.size === size && st.mtimeMs <= mtimeMs + 1;
    });
  } catch {
    return false;
  }
}

module.exports = { upToDate };
