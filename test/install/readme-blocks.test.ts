/** The README's blocks and links, read as the install suite and the registry's page read them. */
import { describe, expect, it } from "vitest";
import { links, tsBlocks } from "./readme";

describe("README", () => {
  it("has TypeScript blocks that import the package (typechecked in test/install)", () => {
    const blocks = tsBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.every((b) => /from "costgate(\/[a-z]+)?"/.test(b))).toBe(true);
  });

  it("has no top-level await, which a CommonJS Pulumi program cannot compile", () => {
    for (const block of tsBlocks()) expect(block).not.toMatch(/^(const|let|export const) .*= await /m);
  });

  it("links only to absolute addresses or anchors, which work on the registry's page", () => {
    const bad = links().filter((l) => !/^(https?:\/\/|#)/.test(l));
    expect(bad).toEqual([]);
  });
});
