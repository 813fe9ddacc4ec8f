import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where pictures are kept: originals named by the sha256 of their bytes, and the copies made of
 * them. One small interface, so that a folder on this machine (below) and an object store shared
 * by several machines can stand in for each other (decision 022).
 */
export interface PictureStore {
  /** Keeps the bytes (once, however often they are put) and answers their sha256, in hex. */
  putOriginal(bytes: Uint8Array): Promise<string>;
  getOriginal(hash: string): Promise<Uint8Array | null>;
  /** Whether the original is kept (it may have been removed to keep the store within its bound). */
  hasOriginal(hash: string): Promise<boolean>;
  /** `variant` is a file name such as `640.avif` or, for a crop, `og.jpg`. */
  putVariant(hash: string, variant: string, bytes: Uint8Array): Promise<void>;
  getVariant(hash: string, variant: string): Promise<Uint8Array | null>;
  /** The original and every copy of it. */
  remove(hash: string): Promise<void>;
  totalBytes(): Promise<number>;
}

export const HASH = /^[0-9a-f]{64}$/;
const VARIANT = /^((?:wide-)?\d{1,4}|og|16x9|4x3|1x1)\.(avif|webp|jpg)$/;
const ORIGINAL = "original";

/** After the bound is passed, pictures are removed down to this share of it. */
const LOW_WATER = 0.9;

/**
 * A folder per picture (`<dir>/<sha256>/original`, `<dir>/<sha256>/640.avif`...), at most
 * `maxBytes` in all: past that, the pictures used least recently are removed. A picture's use is
 * its folder's modification time, which a read sets and a write sets by itself; access times are
 * not kept on many mounts (noatime), and the file system keeps this one for every process on the
 * machine, across restarts, with no index of ours to keep consistent. The folder is created on the
 * first write.
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

  async function scan(): Promise<{ hash: string; bytes: number; usedAt: number }[]> {
    const names = await fs.readdir(dir).catch(() => []);
    const pictures = await Promise.all(
      names
        .filter((name) => HASH.test(name))
        .map(async (hash) => {
          const [stat, files] = await Promise.all([
            fs.stat(folder(hash)),
            fs.readdir(folder(hash), { withFileTypes: true }),
          ]);
          const sizes = await Promise.all(
            files.map((file) => fs.stat(path.join(folder(hash), file.name)).then((s) => s.size)),
          );
          return { hash, bytes: sizes.reduce((a, b) => a + b, 0), usedAt: stat.mtimeMs };
        }),
    );
    return pictures;
  }

  /** Counts the folder afresh (other processes write to it too) and removes the least used. */
  async function evict(): Promise<void> {
    const pictures = (await scan()).sort((a, b) => a.usedAt - b.usedAt);
    let bytes = pictures.reduce((sum, picture) => sum + picture.bytes, 0);
    for (const picture of pictures) {
      if (bytes <= maxBytes * LOW_WATER) break;
      await fs.rm(folder(picture.hash), { recursive: true, force: true });
      bytes -= picture.bytes;
    }
    total = bytes;
  }

  /** Written under another name first, then renamed: a reader sees the whole file or none. */
  async function write(hash: string, name: string, bytes: Uint8Array): Promise<void> {
    const before = await counted();
    await fs.mkdir(temp, { recursive: true });
    await fs.mkdir(folder(hash), { recursive: true });
    const partial = path.join(temp, randomUUID());
    await fs.writeFile(partial, bytes);
    await fs.rename(partial, path.join(folder(hash), name));
    total = before + bytes.byteLength;
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

  return {
    async putOriginal(bytes) {
      const hash = createHash("sha256").update(bytes).digest("hex");
      const kept = await read(hash, ORIGINAL);
      if (!kept) await write(hash, ORIGINAL, bytes);
      return hash;
    },
    getOriginal: (hash) => read(hash, ORIGINAL),
    hasOriginal: (hash) =>
      HASH.test(hash)
        ? fs.access(path.join(folder(hash), ORIGINAL)).then(
            () => true,
            () => false,
          )
        : Promise.resolve(false),
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
