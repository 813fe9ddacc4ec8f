import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where pictures are kept: originals named by the sha256 of their bytes, and the copies made of
 * them. One small interface, so that a folder on this machine (below) and an object store shared
 * by several machines can stand in for each other (decision 022).
 */
export interface PictureStore {
  /**
   * Keeps the bytes (once, however often they are put) and answers their sha256, in hex. `keep`:
   * the original is never removed to keep the store within its bound (a picture staff uploaded,
   * which cannot be fetched again), until `release`d; its copies still may be.
   */
  putOriginal(bytes: Uint8Array, options?: { keep?: boolean }): Promise<string>;
  getOriginal(hash: string): Promise<Uint8Array | null>;
  /** Whether the original is kept (it may have been removed to keep the store within its bound). */
  hasOriginal(hash: string): Promise<boolean>;
  /** Marks a stored original as `putOriginal`'s `keep` does; false when it is not in the store. */
  keep(hash: string): Promise<boolean>;
  /** Lets a kept original go like any other, by the bound (its upload was deleted). */
  release(hash: string): Promise<void>;
  /** `variant` is a file name such as `640.avif`, `wide-f35x60-640.avif` or, for a crop, `og.jpg`. */
  putVariant(hash: string, variant: string, bytes: Uint8Array): Promise<void>;
  getVariant(hash: string, variant: string): Promise<Uint8Array | null>;
  /** The original and every copy of it, kept or not. */
  remove(hash: string): Promise<void>;
  /** The bytes the bound counts: every file but kept originals. */
  totalBytes(): Promise<number>;
}

export const HASH = /^[0-9a-f]{64}$/;

/**
 * The store did not answer (down, unreachable or too slow): nothing was read or written, and the
 * same call may succeed later. The picture route answers 503 with Retry-After for it.
 */
export class PictureStoreUnavailableError extends Error {
  constructor(
    message: string,
    /** Seconds after which asking again may succeed. */
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PictureStoreUnavailableError";
  }
}
/**
 * `keep` as every store does it: marks a stored original kept, and checks it is still there after,
 * since another process or machine may have removed it between the two (then it is not kept).
 */
export async function keepStored(
  hash: string,
  store: {
    hasOriginal: (hash: string) => Promise<boolean>;
    mark: (hash: string) => Promise<void>;
    release: (hash: string) => Promise<void>;
  },
): Promise<boolean> {
  if (!(await store.hasOriginal(hash))) return false;
  await store.mark(hash);
  if (await store.hasOriginal(hash)) return true;
  await store.release(hash);
  return false;
}

const FOCUS = "f\\d{1,3}x\\d{1,3}";
/** The names a copy may have (`putVariant`'s `variant`). */
export const VARIANT = new RegExp(
  `^(\\d{1,4}|wide-(?:${FOCUS}-)?\\d{1,4}|(?:og|16x9|4x3|1x1)(?:-${FOCUS})?)\\.(avif|webp|jpg)$`,
);
const ORIGINAL = "original";
/** An empty file beside a kept original (a file, so that every process on the machine sees it). */
const KEPT = "kept";

/** After the bound is passed, pictures are removed down to this share of it. */
const LOW_WATER = 0.9;

/**
 * A folder per picture (`<dir>/<sha256>/original`, `<dir>/<sha256>/640.avif`...), at most
 * `maxBytes` in all: past that, the pictures used least recently are removed. A picture's use is
 * its folder's modification time, which a read sets and a write sets by itself; access times are
 * not kept on many mounts (noatime), and the file system keeps this one for every process on the
 * machine, across restarts, with no index of ours to keep consistent. The folder is created on the
 * first write.
 *
 * A kept original (an empty `kept` file beside it) is not counted against the bound and never
 * removed by it: uploads are the newsroom's own content, which would otherwise crowd out the feed
 * pictures over the years, or be lost. Its copies are counted and removed as any others (a focal
 * point's copies could otherwise fill the disk).
 */
export function folderPictureStore(options: { dir: string; maxBytes: number }): PictureStore {
  const { dir, maxBytes } = options;
  const temp = path.join(dir, ".tmp");
  /** Bytes held, as last counted plus this process's writes since; null until counted. */
  let total: number | null = null;

  const folder = (hash: string) => path.join(dir, hash);

  async function counted(): Promise<number> {
    total ??= (await scan()).reduce((sum, picture) => sum + picture.bytes, 0);
    return total;
  }

  const isKept = (hash: string) =>
    fs.access(path.join(folder(hash), KEPT)).then(
      () => true,
      () => false,
    );

  /** Each picture's files, with the bytes the bound counts (all but a kept original). */
  async function scan(): Promise<
    { hash: string; bytes: number; usedAt: number; kept: boolean; files: string[] }[]
  > {
    const names = await fs.readdir(dir).catch(() => []);
    const pictures = await Promise.all(
      names
        .filter((name) => HASH.test(name))
        .map(async (hash) => {
          const [stat, entries] = await Promise.all([
            fs.stat(folder(hash)),
            fs.readdir(folder(hash), { withFileTypes: true }),
          ]);
          const files = entries.map((entry) => entry.name);
          const kept = files.includes(KEPT);
          const sizes = await Promise.all(
            files
              .filter((file) => !(kept && file === ORIGINAL))
              .map((file) => fs.stat(path.join(folder(hash), file)).then((s) => s.size)),
          );
          return {
            hash,
            bytes: sizes.reduce((a, b) => a + b, 0),
            usedAt: stat.mtimeMs,
            kept,
            files,
          };
        }),
    );
    return pictures;
  }

  /**
   * Counts the folder afresh (other processes write to it too) and removes the least used: whole
   * pictures, or a kept picture's copies alone.
   */
  async function evict(): Promise<void> {
    const pictures = (await scan()).sort((a, b) => a.usedAt - b.usedAt);
    let bytes = pictures.reduce((sum, picture) => sum + picture.bytes, 0);
    for (const picture of pictures) {
      if (bytes <= maxBytes * LOW_WATER) break;
      // Asked again just before: another process may have marked it kept since the scan.
      if (picture.kept || (await isKept(picture.hash))) {
        const copies = picture.files.filter((file) => file !== ORIGINAL && file !== KEPT);
        await Promise.all(
          copies.map((file) => fs.rm(path.join(folder(picture.hash), file), { force: true })),
        );
      } else {
        await fs.rm(folder(picture.hash), { recursive: true, force: true });
      }
      bytes -= picture.bytes;
    }
    total = bytes;
  }

  /**
   * Written under another name first, then renamed: a reader sees the whole file or none.
   * `counts`: false for a kept original, outside the bound.
   */
  async function write(hash: string, name: string, bytes: Uint8Array, counts = true) {
    const before = await counted();
    await fs.mkdir(temp, { recursive: true });
    await fs.mkdir(folder(hash), { recursive: true });
    const partial = path.join(temp, randomUUID());
    await fs.writeFile(partial, bytes);
    await fs.rename(partial, path.join(folder(hash), name));
    total = before + (counts ? bytes.byteLength : 0);
    if (total > maxBytes) await evict();
  }

  async function read(hash: string, name: string): Promise<Uint8Array | null> {
    if (!HASH.test(hash)) return null;
    try {
      const bytes = await fs.readFile(path.join(folder(hash), name));
      const now = new Date();
      await fs.utimes(folder(hash), now, now);
      return bytes;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  const hasOriginal = (hash: string) =>
    HASH.test(hash)
      ? fs.access(path.join(folder(hash), ORIGINAL)).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);

  /** The mark first, then the bytes: no eviction between the two can take a kept original. */
  async function mark(hash: string): Promise<void> {
    if (await isKept(hash)) return;
    await fs.mkdir(folder(hash), { recursive: true });
    await fs.writeFile(path.join(folder(hash), KEPT), "");
    // The original, counted until now, is outside the bound from here on.
    total = null;
  }

  async function release(hash: string): Promise<void> {
    if (!HASH.test(hash)) return;
    await fs.rm(path.join(folder(hash), KEPT), { force: true });
    total = null;
  }

  return {
    async putOriginal(bytes, options = {}) {
      const hash = createHash("sha256").update(bytes).digest("hex");
      if (options.keep) await mark(hash);
      const stored = await read(hash, ORIGINAL);
      if (!stored) await write(hash, ORIGINAL, bytes, !options.keep);
      return hash;
    },
    getOriginal: (hash) => read(hash, ORIGINAL),
    hasOriginal,
    keep: (hash) => keepStored(hash, { hasOriginal, mark, release }),
    release,
    async putVariant(hash, variant, bytes) {
      if (!HASH.test(hash) || !VARIANT.test(variant)) {
        throw new Error(`Not a picture variant: ${hash}/${variant}`);
      }
      await write(hash, variant, bytes);
    },
    getVariant: (hash, variant) =>
      VARIANT.test(variant) ? read(hash, variant) : Promise.resolve(null),
    async remove(hash) {
      if (!HASH.test(hash)) return;
      await fs.rm(folder(hash), { recursive: true, force: true });
      total = null;
    },
    totalBytes: () => counted(),
  };
}
