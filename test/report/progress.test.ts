import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { startProgress } from "../../cli/report/progress";

function stream(isTTY: boolean) {
  const s = Object.assign(new PassThrough(), { isTTY, columns: 80 });
  let text = "";
  s.on("data", (b: Buffer) => {
    text += b.toString();
  });
  return { s, text: () => text };
}

describe("startProgress", () => {
  it("draws nothing when the stream is not a terminal", () => {
    const { s, text } = stream(false);
    expect(startProgress("charges", "requests", s)).toBeUndefined();
    expect(text()).toBe("");
  });

  it("draws a bar on a terminal and clears it when stopped", async () => {
    const { s, text } = stream(true);
    const bar = startProgress("charges", "requests", s);
    expect(bar).toBeDefined();
    bar?.update(1, 3);
    bar?.update(3, 3);
    bar?.stop();
    await new Promise((r) => setImmediate(r));
    expect(text()).toMatch(/charges \[[█░]+\] 1\/3 requests/);
  });
});
