/** bench:pictures, part 1: copies made per CPU second with the web process's own resizing code. */
import { performance } from "node:perf_hooks";
import { renderCrop, renderVariant } from "../../server/images/picture";
import { CROPS, VARIANT_FORMATS, type VariantWidth } from "../../server/images/variants";

const WIDTHS: VariantWidth[] = [320, 640, 1200];
/** Each photo resized this many times per format and width. */
export const ROUNDS = Number(process.env.BENCH_PICTURE_ROUNDS ?? 2);

export interface ResizeRow {
  what: string;
  made: number;
  cpuSeconds: number;
  wallSeconds: number;
  bytes: number;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

export async function measureResizing(originals: Buffer[]): Promise<ResizeRow[]> {
  const [first] = originals;
  if (!first) throw new Error("no photos");
  // sharp and each encoder loaded once before anything is timed.
  for (const format of VARIANT_FORMATS) await renderVariant(first, { width: 320, format });
  await renderCrop(first, CROPS.og);

  const rows: ResizeRow[] = [];
  const time = async (what: string, make: (original: Buffer) => Promise<Buffer>) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    let made = 0;
    let bytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const original of originals) {
        bytes += (await make(original)).byteLength;
        made += 1;
      }
    }
    const row = {
      what,
      made,
      cpuSeconds: cpuSeconds(cpu),
      wallSeconds: (performance.now() - started) / 1000,
      bytes,
    };
    console.log(
      `  ${what}: ${(row.made / row.cpuSeconds).toFixed(1)} per CPU second, ${((row.wallSeconds / row.made) * 1000).toFixed(0)} ms each`,
    );
    rows.push(row);
  };
  for (const format of VARIANT_FORMATS) {
    for (const width of WIDTHS) {
      await time(`${format} ${width} px`, (original) => renderVariant(original, { width, format }));
    }
  }
  // What most slots name, the middle 16:9 of the photo (shared/picture.ts, shapeSize), beside the
  // whole photo at the same width: the bytes a 16:9 card saves.
  for (const shape of ["whole", "wide"] as const) {
    await time(`avif 720 px, ${shape === "wide" ? "wide (16:9)" : "whole"}`, (original) =>
      renderVariant(original, { width: 720, format: "avif", shape }),
    );
  }
  await time(`crop \`og\` ${CROPS.og.width} × ${CROPS.og.height} JPEG`, (original) =>
    renderCrop(original, CROPS.og),
  );
  return rows;
}
