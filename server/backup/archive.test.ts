import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { create, extract } from "tar";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extractBackup, readManifest, writeBackup } from "./archive";
import { BACKUP_VERSION, MANIFEST } from "./manifest";

/**
 * The backup file itself (decision 031), on archives made the way a damaged disk, a hostile hand
 * or a full disk would make them. The whole commands, on a real site: cli/backup.test.ts.
 */

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "news-archive-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A part with two files of `size` bytes each, backed up to `<root>/site.tar.gz`. */
async function backup(size = 4096): Promise<string> {
  const dir = path.join(root, "pictures");
  fs.mkdirSync(path.join(dir, "a"), { recursive: true });
  fs.writeFileSync(path.join(dir, "a", "first.bin"), Buffer.alloc(size, 1));
  fs.writeFileSync(path.join(dir, "last.bin"), Buffer.alloc(size, 2));
  const file = path.join(root, "site.tar.gz");
  await writeBackup(file, [{ name: "pictures", dir, skip: [] }]);
  return file;
}

/** The backup unpacked, `change` applied to its folder, packed again in the same order. */
async function repacked(file: string, change: (dir: string) => void): Promise<string> {
  const dir = path.join(root, "unpacked");
  fs.mkdirSync(dir);
  const names: string[] = [];
  await extract({ file, cwd: dir, onReadEntry: (entry) => void names.push(entry.path) });
  change(dir);
  const out = path.join(root, "repacked.tar.gz");
  await create({ file: out, cwd: dir, gzip: true, portable: true, noDirRecurse: true }, names);
  return out;
}

/** A fresh folder to restore the part into, as `news restore` stages it. */
function staging(): Map<string, string> {
  const dir = path.join(root, "staging");
  fs.mkdirSync(dir);
  return new Map([["pictures", dir]]);
}

describe("the backup file", () => {
  it("restores what it holds, every file as listed", async () => {
    const folders = staging();
    await extractBackup(await backup(), () => folders);
    const dir = folders.get("pictures") ?? "";
    expect(fs.readFileSync(path.join(dir, "last.bin"))).toEqual(Buffer.alloc(4096, 2));
    expect(fs.readFileSync(path.join(dir, "a", "first.bin"))).toEqual(Buffer.alloc(4096, 1));
  });

  // gzip's own check passes: only the manifest's digest tells. Before, a file's check ran when
  // its stream closed, after the archive had been read, and its failure was never looked at.
  it.each(["a/first.bin", "last.bin"])(
    "refuses a file whose bytes are not those its manifest lists (%s), in a sound archive",
    async (name) => {
      const tampered = await repacked(await backup(), (dir) =>
        fs.writeFileSync(path.join(dir, "pictures", name), Buffer.alloc(4096, 9)),
      );
      await expect(extractBackup(tampered, () => staging())).rejects.toThrow(
        `cannot be restored: pictures/${name} is not the file its manifest describes (damaged). Nothing was changed.`,
      );
    },
  );

  it("refuses a file longer than its manifest lists before writing any of it", async () => {
    const longer = await repacked(await backup(), (dir) =>
      fs.writeFileSync(path.join(dir, "pictures", "last.bin"), Buffer.alloc(8 * 1024 * 1024, 2)),
    );
    const folders = staging();
    await expect(extractBackup(longer, () => folders)).rejects.toThrow(
      "pictures/last.bin is not the file its manifest describes (damaged)",
    );
    expect(fs.existsSync(path.join(folders.get("pictures") ?? "", "last.bin"))).toBe(false);
  });

  it("refuses a backup whose files need more room than the disk has, before writing", async () => {
    const huge = await repacked(await backup(), (dir) => {
      const manifest = path.join(dir, MANIFEST);
      const json = JSON.parse(fs.readFileSync(manifest, "utf8")) as {
        parts: { entries: { size: number }[] }[];
      };
      for (const entry of json.parts[0]?.entries ?? []) entry.size = 2 ** 50;
      fs.writeFileSync(manifest, JSON.stringify(json));
    });
    const folders = staging();
    await expect(extractBackup(huge, () => folders)).rejects.toThrow(
      /cannot be restored: it needs 2147483648 MB beside .+, which has \d+ MB free\. Nothing was changed\.$/,
    );
    expect(fs.readdirSync(folders.get("pictures") ?? "")).toEqual([]);
  });

  it("stops with a clear error when a file cannot be written, every file closed", async () => {
    const file = await backup();
    const folders = staging();
    // Something already stands where the first file goes ("wx": never written over).
    const dir = folders.get("pictures") ?? "";
    fs.mkdirSync(path.join(dir, "a"));
    fs.writeFileSync(path.join(dir, "a", "first.bin"), "in the way");
    await expect(extractBackup(file, () => folders)).rejects.toThrow(
      /cannot be restored: pictures\/a\/first\.bin could not be written \(EEXIST.*Nothing was changed\.$/,
    );
    // What the caller then removes can be removed: nothing holds it open.
    fs.rmSync(dir, { recursive: true });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("says why it refuses a backup made by a newer version, not that it has no manifest", async () => {
    const newer = await repacked(await backup(), (dir) => {
      const manifest = path.join(dir, MANIFEST);
      const json = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: number };
      fs.writeFileSync(manifest, JSON.stringify({ ...json, version: BACKUP_VERSION + 1 }));
    });
    await expect(readManifest(newer)).rejects.toThrow(
      `it was made by a newer version of the site (backup version ${BACKUP_VERSION + 1})`,
    );
  });

  // A full disk, as the file-size limit makes one (writes fail with EFBIG): before, the backup
  // waited for a drain that never came, and never said why (the command hung, holding the data
  // directory; here the process just ended, with nothing printed).
  it.skipIf(process.platform !== "linux")(
    "fails on a full disk with the error, leaving no file, instead of waiting",
    async () => {
      const dir = path.join(root, "pictures");
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "photo.bin"), randomBytes(4_000_000));
      const target = path.join(root, "backups", "site.tar.gz");
      fs.mkdirSync(path.dirname(target));
      const script = `
        const { writeBackup } = await import(${JSON.stringify(path.resolve("server/backup/archive.ts"))});
        try {
          await writeBackup(${JSON.stringify(target)}, [{ name: "pictures", dir: ${JSON.stringify(dir)}, skip: [] }]);
          console.log("written");
        } catch (error) {
          console.log("failed:", error.code ?? error.message);
        }`;
      // About a megabyte at most per file (the shell counts blocks of 512 bytes or 1 KB); a minute
      // before it counts as waiting for ever.
      const run = spawnSync(
        "sh",
        [
          "-c",
          `ulimit -f 2000 && exec "$0" --import tsx --input-type=module -e "$1"`,
          process.execPath,
          script,
        ],
        { encoding: "utf8", timeout: 60_000 },
      );
      expect(run.error, run.stderr).toBeUndefined();
      expect(run.stdout.trim()).toBe("failed: EFBIG");
      expect(fs.readdirSync(path.dirname(target))).toEqual([]);
    },
  );
});
