import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";

/**
 * A backup file's manifest (decision 031): every folder and file of every part with its size and
 * SHA-256, and one digest per part; read back, it is checked before anything is restored.
 */

export const BACKUP_FORMAT = "sd-news-backup";
export const BACKUP_VERSION = 1;
export const MANIFEST = "manifest.json";

/** A folder to back up, by name (`database`, `pictures`...), leaving out the paths in `skip`. */
export interface PartSource {
  name: string;
  dir: string;
  skip: readonly string[];
}

const relativePath = z
  .string()
  .min(1)
  .refine(
    (p) => p.split("/").every((segment) => segment !== "" && segment !== "." && segment !== ".."),
    "a relative path without . or .. segments",
  );

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().min(1),
  createdAt: z.iso.datetime(),
  parts: z.array(
    z.object({
      name: z.string().regex(/^[a-z]+$/),
      from: z.string(),
      files: z.number().int().min(0),
      bytes: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      dirs: z.array(relativePath),
      entries: z.array(
        z.object({
          path: relativePath,
          size: z.number().int().min(0),
          mode: z.number().int().min(0).max(0o777),
          sha256: z.string().regex(/^[0-9a-f]{64}$/),
        }),
      ),
    }),
  ),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestPart = Manifest["parts"][number];

/** A backup file that cannot be restored: damaged, cut short, or not one of ours. */
export class BackupFileError extends Error {
  constructor(file: string, why: string) {
    super(`${file} cannot be restored: ${why}. Nothing was changed.`);
    this.name = "BackupFileError";
  }
}

/** What a part holds, in a stable order. */
export async function listPart(
  source: PartSource,
): Promise<{ part: ManifestPart; skipped: string[] }> {
  const skip = new Set(source.skip.map((p) => path.resolve(p)));
  const dirs: string[] = [];
  const files: { path: string; size: number; mode: number }[] = [];
  const skipped: string[] = [];
  const walk = (dir: string, rel: string) => {
    const names = fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of names) {
      const full = path.join(dir, dirent.name);
      if (skip.has(full)) continue;
      const relPath = rel ? `${rel}/${dirent.name}` : dirent.name;
      if (dirent.isDirectory()) {
        dirs.push(relPath);
        walk(full, relPath);
      } else if (dirent.isFile()) {
        const stat = fs.statSync(full);
        files.push({ path: relPath, size: stat.size, mode: stat.mode & 0o777 });
      } else {
        skipped.push(full);
      }
    }
  };
  walk(source.dir, "");
  const entries: ManifestPart["entries"] = [];
  for (const file of files) {
    entries.push({ ...file, sha256: await hashFile(path.join(source.dir, file.path)) });
  }
  return {
    part: {
      name: source.name,
      from: source.dir,
      files: entries.length,
      bytes: entries.reduce((sum, e) => sum + e.size, 0),
      sha256: partDigest(dirs, entries),
      dirs,
      entries,
    },
    skipped,
  };
}

/** One digest for a part: its folders, and each file's path, size and SHA-256. */
function partDigest(dirs: readonly string[], entries: ManifestPart["entries"]): string {
  const hash = createHash("sha256");
  for (const dir of dirs) hash.update(`dir ${dir}\n`);
  for (const e of entries) hash.update(`file ${e.sha256} ${e.size} ${e.path}\n`);
  return hash.digest("hex");
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** What is in `dir` now, as a part's digest: tells whether restoring a part would change it. */
export async function folderDigest(dir: string): Promise<string> {
  return (await listPart({ name: "folder", dir, skip: [] })).part.sha256;
}

/** The manifest's JSON, checked; `fail` says why it is not one of ours. */
export function parseManifest(bytes: Buffer, fail: (why: string) => void): Manifest | undefined {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    fail("its manifest is not JSON");
    return undefined;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    fail(`its manifest is not one of a news backup (${parsed.error.issues[0]?.message ?? ""})`);
    return undefined;
  }
  if (parsed.data.version > BACKUP_VERSION) {
    fail(`it was made by a newer version of the site (backup version ${parsed.data.version})`);
    return undefined;
  }
  return parsed.data;
}
