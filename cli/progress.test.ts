import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { progressBar, progressReporter } from "./progress";

describe("progressBar", () => {
  it.each([
    [0, 4, "[--------] 0/4 feeds"],
    [1, 4, "[##------] 1/4 feeds"],
    [4, 4, "[########] 4/4 feeds"],
    [0, 0, "[########] 0/0 feeds"],
  ])("%i of %i", (done, total, expected) => {
    expect(progressBar(done, total, 8)).toBe(expected);
  });
});

function capture(isTTY: boolean) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  stream.isTTY = isTTY;
  let text = "";
  stream.on("data", (c: Buffer) => (text += c.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe("progressReporter", () => {
  it("writes plain lines when not in a terminal", () => {
    const out = capture(false);
    const progress = progressReporter(2, out.stream);
    progress.line("✔ a");
    progress.line("✔ b");
    progress.finish();
    expect(out.text()).toBe("✔ a\n✔ b\n");
  });

  it("in a terminal, redraws a bar under the lines", () => {
    const out = capture(true);
    const progress = progressReporter(2, out.stream);
    progress.line("✔ a");
    progress.finish();
    expect(out.text()).toContain("0/2 feeds");
    expect(out.text()).toContain("✔ a\n");
    expect(out.text()).toContain("1/2 feeds");
    expect(out.text().endsWith("\r\x1b[2K")).toBe(true);
  });
});
