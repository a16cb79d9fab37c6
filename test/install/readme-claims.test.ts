/**
 * The README's figures and claims that can drift, checked against the package: the tarball's size, the
 * unit of `costgate cost --json`'s amounts, and that every flag it shows is costgate's or says whose it is.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { IDENTITY_FLAGS } from "../../cli/identity-options";
import { priceDigest } from "../../provider/preview/cost";
import { parseDigest } from "../../provider/preview/digest";
import { readRateCard } from "../../provider/pricing/rate-card";
import { README } from "./readme";

const ROOT = resolve(__dirname, "../..");
const text = readFileSync(README, "utf8");
/** The README as one line of prose per paragraph, so that a claim cut by a line break still matches. */
const prose = text.replace(/\s*\n\s*/g, " ");

describe("README figures", () => {
  it("gives the tarball's size within 10 % of what npm packs", () => {
    const said = /the tarball is (\d+(?:\.\d+)?) kB/.exec(prose);
    expect(said, "the README states the tarball's size").not.toBeNull();
    // the files npm would pack (package.json "files"), without building or writing a tarball
    const [pack] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    ) as { size: number }[];
    const packedKb = (pack?.size ?? 0) / 1000;
    expect(Math.abs(Number(said?.[1]) - packedKb) / packedKb).toBeLessThan(0.1);
  });

  it("says what unit costgate cost --json's amounts are in, and they are in it", () => {
    expect(prose).toMatch(/`--json` gives .*amounts in currency units rounded to the cent/);
    expect(prose).not.toMatch(/amounts in cents/);
    const dir = join(ROOT, "test/fixtures/preview");
    const cost = priceDigest(
      parseDigest(readFileSync(join(dir, "all-ops.json"), "utf8")),
      readRateCard(join(dir, "rate-card.yaml")),
    );
    // m1.small at 0.0347 an hour × 730 hours: 25.33 a month, not 2533
    const amounts = cost.resources.flatMap((r) => [r.monthlyBefore, r.monthlyAfter]);
    expect(amounts).toContain(25.33);
    expect(amounts.every((a) => a === null || Number.isInteger(Math.round(a * 100)))).toBe(true);
  });
});

/** Flags of other tools the README may show, with the words that must name the tool in the same paragraph. */
const OTHER_TOOLS: Record<string, RegExp> = {
  "--show-replacement-steps": /Pulumi's `--show-replacement-steps`/,
  "--policy-pack": /pulumi preview/,
  "--policy-pack-config": /Pulumi reads|pulumi preview|the pack's `--policy-pack-config`/,
  "--secret": /`pulumi config set --secret`/,
  "--liftoff-only": /V8|the launcher from setting/,
  "--server": /`pulumi plugin install resource costgate/,
  "--language": /`pulumi package gen-sdk/,
  "--days": /`node scripts\/calendar\.js --days/,
};

function costgateFlags(): Set<string> {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
    );
  // the identity flags are derived from one field list (provider/identity/fields.ts), not spelled in .option()
  const flags = new Set(["--help", "--version", "--os-", ...IDENTITY_FLAGS]);
  for (const f of files(join(ROOT, "cli"))) {
    for (const m of readFileSync(f, "utf8").matchAll(/\.option\(\s*"(--[a-z][a-z0-9-]*)/g))
      flags.add(m[1] ?? "");
  }
  return flags;
}

describe("README flags", () => {
  it("shows only costgate's flags, or says whose a flag is", () => {
    const ours = costgateFlags();
    const paragraphs = text.split(/\n\s*\n/).map((p) => p.replace(/\s*\n\s*/g, " "));
    const unexplained: string[] = [];
    for (const p of paragraphs) {
      for (const m of p.matchAll(/(?:^|[^a-z0-9-])(--[a-z][a-z0-9-]*)/g)) {
        const flag = m[1] ?? "";
        if (ours.has(flag)) continue;
        if (!OTHER_TOOLS[flag]?.test(p)) unexplained.push(flag);
      }
    }
    expect(unexplained).toEqual([]);
  });

  it("does not present another tool's flag as costgate's", () => {
    for (const flag of Object.keys(OTHER_TOOLS)) expect(costgateFlags().has(flag)).toBe(false);
  });
});
