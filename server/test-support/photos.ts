/**
 * Ordinary news photographs for the "real photos" mode of the audit and the benchmarks (issue 20):
 * JPEGs 1200–2000 pixels wide of 200 KB to 1 MB, as feeds link them, made here rather than kept in
 * the repository. Each is a scene drawn from its seed (sky, sun, hills, buildings with lit windows,
 * a crowd of small shapes), softened and given sensor grain, so that it has edges and texture
 * everywhere and compresses as a photograph does, not as a flat drawing. The same seed gives the
 * same bytes with the same libvips; the files are kept in a cache folder named after the generator
 * and libvips versions, so they are drawn once per machine.
 *
 * One is stored on its side with EXIF orientation 6 and carries a camera's EXIF (make, model, date)
 * and GPS position, as a reporter's phone writes them: the picture pipeline must turn it upright
 * and strip all of that.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp, { type Exif } from "sharp";

export interface PhotoSpec {
  /** File name without `.jpg`. */
  name: string;
  /** Size as displayed (after the EXIF orientation). */
  width: number;
  height: number;
  seed: number;
  /** Sensor grain, in levels of 255: more grain, more bytes. */
  grain: number;
  quality: number;
  /** Stored on its side with EXIF orientation 6 (turn 90° clockwise to display), camera EXIF and GPS. */
  phone?: boolean;
}

/** Six landscape photos and two portrait ones, one of them from a phone. */
export const PHOTO_SPECS: readonly PhotoSpec[] = [
  { name: "harbor-dawn", width: 1600, height: 1067, seed: 11, grain: 6, quality: 86 },
  { name: "council-chamber", width: 2000, height: 1333, seed: 23, grain: 8, quality: 90 },
  { name: "trolley-stop", width: 1200, height: 800, seed: 37, grain: 9, quality: 88 },
  { name: "ballpark-crowd", width: 1800, height: 1200, seed: 41, grain: 5, quality: 86 },
  { name: "beach-cleanup", width: 1920, height: 1080, seed: 53, grain: 7, quality: 85 },
  { name: "market-stalls", width: 1400, height: 933, seed: 67, grain: 8, quality: 88 },
  { name: "mayor-portrait", width: 1200, height: 1600, seed: 79, grain: 6, quality: 86 },
  { name: "phone-street", width: 1200, height: 1600, seed: 83, grain: 6, quality: 85, phone: true },
];

/** Bumped when the drawing changes, so that cached photos drawn the old way are not reused. */
const GENERATOR_VERSION = 1;

/** The camera a phone photo claims, and where it was taken (San Diego's Embarcadero). */
const PHONE_EXIF: Exif = {
  IFD0: { Make: "Sample Phone Co", Model: "Sample Phone 12", Orientation: "6" },
  IFD2: { DateTimeOriginal: "2026:11:14 09:41:07" },
  IFD3: {
    GPSLatitudeRef: "N",
    GPSLatitude: "32/1 42/1 5148/100",
    GPSLongitudeRef: "W",
    GPSLongitude: "117/1 10/1 1236/100",
  },
};

export interface Photo {
  name: string;
  /** The JPEG, in the cache folder. */
  file: string;
  bytes: number;
  /** As displayed. */
  width: number;
  height: number;
  /** sha256 of the file, hex. */
  sha256: string;
}

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fixed = (value: number) => value.toFixed(1);

/** The scene of a photo as SVG, `width` × `height`, drawn from `seed`. */
function sceneSvg(width: number, height: number, seed: number): string {
  const random = seededRandom(seed);
  const pick = (low: number, high: number) => low + random() * (high - low);
  const hue = Math.floor(pick(0, 360));
  const parts: string[] = [
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,50%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},65%,85%)"/></linearGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>`,
    `<circle cx="${fixed(pick(0, width))}" cy="${fixed(pick(0, height * 0.3))}" r="${fixed(height * 0.07)}" fill="hsl(45,90%,82%)"/>`,
  ];
  // Three ranges of hills, nearer ones darker.
  for (let layer = 0; layer < 3; layer++) {
    const base = height * (0.42 + layer * 0.1);
    let d = `M0 ${height}`;
    for (let x = 0; x <= width; x += width / 24)
      d += ` L${fixed(x)} ${fixed(base - pick(0, height * 0.12))}`;
    parts.push(
      `<path d="${d} L${width} ${height} Z" fill="hsl(${(hue + 120 + layer * 25) % 360},${30 + layer * 10}%,${38 - layer * 9}%)"/>`,
    );
  }
  // A skyline, each building with rows of windows, some lit.
  const street = height * 0.74;
  const window = Math.max(4, Math.round(width / 320));
  for (let x = 0; x < width;) {
    const w = width * pick(0.03, 0.09);
    const h = height * pick(0.12, 0.45);
    const top = street - h;
    parts.push(
      `<rect x="${fixed(x)}" y="${fixed(top)}" width="${fixed(w)}" height="${fixed(h)}" fill="hsl(${Math.floor(pick(0, 360))},${Math.floor(pick(5, 25))}%,${Math.floor(pick(20, 70))}%)"/>`,
    );
    for (let wy = top + window; wy < street - window * 2; wy += window * 2.6) {
      for (let wx = x + window; wx < x + w - window * 1.5; wx += window * 2) {
        if (random() < 0.6) {
          parts.push(
            `<rect x="${fixed(wx)}" y="${fixed(wy)}" width="${window}" height="${fixed(window * 1.6)}" fill="hsl(${Math.floor(pick(30, 60))},${Math.floor(pick(0, 80))}%,${Math.floor(pick(35, 90))}%)"/>`,
          );
        }
      }
    }
    x += w + width * pick(0, 0.012);
  }
  // The foreground: a crowd, a market, foliage... many small shapes of every colour.
  const shapes = Math.round((width * height) / 1100);
  const size = width / 140;
  for (let i = 0; i < shapes; i++) {
    parts.push(
      `<ellipse cx="${fixed(pick(0, width))}" cy="${fixed(pick(street - size, height))}" rx="${fixed(pick(0.2, 1.4) * size)}" ry="${fixed(pick(0.2, 1) * size)}" fill="hsl(${Math.floor(pick(0, 360))},${Math.floor(pick(15, 75))}%,${Math.floor(pick(12, 72))}%)"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join("")}</svg>`;
}

/** The JPEG bytes of one photo. */
export async function renderPhoto(spec: PhotoSpec): Promise<Buffer> {
  const { data, info } = await sharp(Buffer.from(sceneSvg(spec.width, spec.height, spec.seed)))
    .removeAlpha()
    // A lens is never as sharp as a vector drawing.
    .blur(0.6)
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Grain: luminance noise (about triangular, ±grain) with a little colour noise on top.
  const random = seededRandom(spec.seed ^ 0x9e3779b9);
  for (let i = 0; i < data.length; i += 3) {
    const luma = (random() + random() - 1) * spec.grain;
    for (let c = 0; c < 3; c++) {
      const value = (data[i + c] ?? 0) + luma + (random() - 0.5) * spec.grain * 0.4;
      data[i + c] = value < 0 ? 0 : value > 255 ? 255 : value;
    }
  }
  let image = sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } });
  if (spec.phone) {
    // Stored as the sensor saw it, on its side; orientation 6 tells viewers to turn it clockwise.
    image = sharp(await image.rotate(270).raw().toBuffer(), {
      raw: { width: info.height, height: info.width, channels: 3 },
    })
      .withExif(PHONE_EXIF)
      // libvips writes the orientation from its own field, over the EXIF one.
      .withMetadata({ orientation: 6 });
  }
  return image.jpeg({ quality: spec.quality }).toBuffer();
}

/** The folder the photos are kept in: one per generator and libvips version. */
function photoCacheDir(): string {
  return path.join(
    os.tmpdir(),
    `news-real-photos-v${GENERATOR_VERSION}-vips${sharp.versions.vips}`,
  );
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * The photos of `specs`, drawn into `dir` the first time and read from there afterwards (a file
 * that is missing or empty is drawn again). Writes go through a temporary name, so that a run
 * stopped half-way, or two runs at once, never leave a partial photo behind.
 */
export async function ensurePhotos(
  specs: readonly PhotoSpec[] = PHOTO_SPECS,
  dir: string = photoCacheDir(),
): Promise<Photo[]> {
  await fs.mkdir(dir, { recursive: true });
  const photos: Photo[] = [];
  for (const spec of specs) {
    const file = path.join(dir, `${spec.name}.jpg`);
    let bytes: Uint8Array | null = await fs.readFile(file).catch(() => null);
    if (!bytes || bytes.byteLength === 0) {
      bytes = await renderPhoto(spec);
      const temp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, file);
    }
    photos.push({
      name: spec.name,
      file,
      bytes: bytes.byteLength,
      width: spec.width,
      height: spec.height,
      sha256: sha256(bytes),
    });
  }
  return photos;
}
