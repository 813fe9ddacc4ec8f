/**
 * Damaged and doctored pictures, as a hostile or broken feed host would send them: valid JPEG, PNG,
 * GIF, WebP and AVIF files with bytes flipped, cut short, or with their declared size rewritten.
 * Whatever the bytes, inspecting them answers (a picture within the limits, or a refusal) and never
 * throws, and every picture it takes can be copied; the process stays up.
 *
 * PICTURE_FUZZ_RUNS inputs (default 300; most are refused within a millisecond, a decoded one takes a few).
 */
import fc from "fast-check";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_INPUT_PIXELS, inspectPicture, renderVariant } from "./picture";

const RUNS = Math.max(1, Number.parseInt(process.env.PICTURE_FUZZ_RUNS ?? "", 10) || 300);

let seeds: Buffer[] = [];

beforeAll(async () => {
  const base = () =>
    sharp({
      create: { width: 96, height: 64, channels: 3, background: { r: 180, g: 90, b: 30 } },
    }).composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64"><circle cx="40" cy="30" r="20" fill="#2050a0"/></svg>',
        ),
      },
    ]);
  seeds = await Promise.all([
    base().jpeg({ quality: 80 }).withMetadata({ orientation: 6 }).toBuffer(),
    base().png().toBuffer(),
    base().gif().toBuffer(),
    base().webp().toBuffer(),
    base().avif({ effort: 0 }).toBuffer(),
  ]);
});

/** One way of damaging a file. */
const damage = fc.oneof(
  fc.record({
    kind: fc.constant("flip" as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
  // The header's width and height, wherever a format keeps them, written as huge numbers.
  fc.record({ kind: fc.constant("size" as const), at: fc.nat({ max: 64 }), value: fc.nat() }),
);

type Damage = { kind: string; at: number; bytes?: Uint8Array; value?: number };

function damaged(seed: Buffer, how: Damage): Buffer {
  const copy = Buffer.from(seed);
  const at = how.at % copy.length;
  switch (how.kind) {
    case "flip":
      copy.set((how.bytes ?? new Uint8Array()).subarray(0, copy.length - at), at);
      return copy;
    case "cut":
      return copy.subarray(0, at);
    default:
      if (at + 4 <= copy.length) copy.writeUInt32BE((how.value ?? 0) >>> 0, at);
      return copy;
  }
}

describe("pictures a feed host could send", () => {
  it("are inspected without throwing, and a picture taken can be copied", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 4 }),
        fc.array(damage, { minLength: 1, maxLength: 3 }),
        async (which, hows) => {
          let bytes = seeds[which] ?? Buffer.alloc(0);
          for (const how of hows) bytes = damaged(bytes, how);
          const inspection = await inspectPicture(bytes);
          if (inspection.kind === "refused") {
            expect(inspection.reason).toEqual(expect.any(String));
            return;
          }
          const { width, height } = inspection.picture;
          expect(width * height).toBeLessThanOrEqual(MAX_INPUT_PIXELS);
          // A picture taken whose pixels are damaged further in may still fail to copy: with an
          // error, which the route answers as a failure, never a crash.
          await renderVariant(bytes, { width: 160, format: "jpeg" }).then(
            (copy) => expect(copy.length).toBeGreaterThan(0),
            (error: unknown) => expect(error).toBeInstanceOf(Error),
          );
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
