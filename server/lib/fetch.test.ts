import { describe, expect, it } from "vitest";
import { readCapped } from "./fetch";

/** A body of `chunks`, saying whether it was left before its end. */
function body(chunks: string[]) {
  const state = { closedEarly: false };
  async function* read() {
    let done = false;
    try {
      for (const chunk of chunks) yield new TextEncoder().encode(chunk);
      done = true;
    } finally {
      state.closedEarly = !done;
    }
  }
  return { stream: read(), state };
}

const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

describe("readCapped", () => {
  it("reads a body within its limit whole", async () => {
    const { stream, state } = body(["abc", "def"]);
    expect(text(await readCapped(stream, 6))).toBe("abcdef");
    expect(state.closedEarly).toBe(false);
  });

  it("refuses a body past its limit, and stops reading it there", async () => {
    const { stream, state } = body(["abc", "def", "ghi", "never read"]);
    expect(await readCapped(stream, 5)).toBeUndefined();
    expect(state.closedEarly).toBe(true);
  });

  it("cut: keeps the first bytes of a body past its limit, and stops reading it there", async () => {
    const { stream, state } = body(["abc", "def", "ghi", "never read"]);
    expect(text(await readCapped(stream, 5, "cut"))).toBe("abcde");
    expect(state.closedEarly).toBe(true);
  });
});
