import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { openDatabase } from "../db/client";
import { acquireDataDirLock, DataDirInUseError } from "../db/lock";
import { extractBackup, readManifest, writeBackup } from "./archive";
import { folderDigest, type Manifest, type PartSource } from "./manifest";

/**
 * Backs up and restores the embedded site (decision 031): its database directory, picture
 * folder, content folder, local blog folder and mail outbox, as one file, while the site is
 * stopped (the data directory belongs to one process).
 */

/** Why a backup or restore did not start; nothing was changed. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefusedError";
  }
}

type PartName = "database" | "pictures" | "content" | "blog" | "outbox";

/** Where each part lives under `config`, and the parts it has no folder for, with why. */
function siteFolders(config: Config): {
  folders: { name: PartName; dir: string }[];
  left: { name: PartName; why: string }[];
} {
  if (config.database.kind !== "pglite") throw new Error("only for the embedded database");
  const folders: { name: PartName; dir: string }[] = [
    { name: "database", dir: config.database.dataDir },
  ];
  const left: { name: PartName; why: string }[] = [];
  const store = config.pictures.store;
  if (store.kind === "folder") folders.push({ name: "pictures", dir: config.pictures.dir });
  else {
    left.push({
      name: "pictures",
      why:
        `they are kept in the bucket s3://${store.bucket}/${store.prefix} (PICTURE_STORE=s3), ` +
        "which is not in this backup: back it up with the bucket's own tools " +
        "(versioning or replication, or aws s3 sync / rclone to another bucket)",
    });
  }
  folders.push({ name: "content", dir: config.contentDir });
  if (config.blog.source === "local" && !isInside(config.blog.dir, config.contentDir)) {
    folders.push({ name: "blog", dir: config.blog.dir });
  }
  folders.push({ name: "outbox", dir: config.newsletter.outboxDir });
  return { folders, left };
}

/** True when `child` is `parent` or lies inside it. */
function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function isNested(child: string, parent: string): boolean {
  return child !== parent && isInside(child, parent);
}

const LOCK_FILE = "news.lock";

/**
 * What `work` gives; a data directory another process holds is said as what to do, any other
 * error as it is.
 */
async function refuseInUse<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    throw new BackupRefusedError(
      `Stop the site first: the embedded database in ${error.dataDir} is in use by ${error.owner} ` +
        `(process ${error.pid}), and only one process may open it. ` +
        "Start the site again once this command has finished.",
    );
  }
}

export interface BackupReport {
  file: string;
  bytes: number;
  manifest: Manifest;
  /** Parts with no folder yet (no picture fetched, no mail written): nothing to keep. */
  absent: { name: PartName; dir: string }[];
  /** Parts not in the backup, and why (pictures in a bucket). */
  left: { name: PartName; why: string }[];
  /** What was neither a file nor a folder (a symbolic link...): not backed up. */
  skipped: string[];
}

/** Writes the whole embedded site to `file`. The site must be stopped: it holds the data directory. */
export async function backupSite(config: Config, file: string): Promise<BackupReport> {
  const { folders, left } = siteFolders(config);
  const dataDir = folders[0]?.dir ?? "";
  if (!fs.existsSync(path.dirname(path.resolve(file)))) {
    throw new BackupRefusedError(`There is no folder ${path.dirname(path.resolve(file))}.`);
  }
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    throw new BackupRefusedError(
      `There is no embedded database in ${dataDir}: nothing to back up.`,
    );
  }
  // Opened and closed once, as the site opens it: a directory left by a stopped site is already
  // clean, one left by a crash is recovered here, so the backup holds a cleanly shut down database.
  // Opening takes the data directory's lock: a running site refuses it.
  await refuseInUse(async () => {
    const database = await openDatabase({ kind: "pglite", dataDir }, { owner: "news backup" });
    await database.close();
  });
  // Held while the folders are read, so that the site cannot start meanwhile.
  const lock = await refuseInUse(() => acquireDataDirLock(dataDir, "news backup"));
  try {
    const present = folders.filter((f) => fs.existsSync(f.dir));
    const sources: PartSource[] = present.map((f) => ({
      name: f.name,
      dir: f.dir,
      skip: [
        // Another part kept inside this one (pictures and outbox in DATA_DIR) is its own part.
        ...present.filter((other) => isNested(other.dir, f.dir)).map((other) => other.dir),
        ...(f.name === "database" ? [path.join(f.dir, LOCK_FILE)] : []),
      ],
    }));
    const { manifest, skipped } = await writeBackup(file, sources);
    return {
      file: path.resolve(file),
      bytes: fs.statSync(file).size,
      manifest,
      absent: folders.filter((f) => !fs.existsSync(f.dir)),
      left,
      skipped,
    };
  } finally {
    lock.release();
  }
}

export interface RestoreReport {
  manifest: Manifest;
  restored: { name: string; dir: string; files: number; bytes: number }[];
  /** Parts whose folder already held exactly what the backup has. */
  unchanged: { name: string; dir: string }[];
  /** Parts of the backup this configuration has no folder for, and why. */
  left: { name: string; why: string }[];
}

function isEmptyDir(dir: string, ignore: readonly string[] = []): boolean {
  if (!fs.existsSync(dir)) return true;
  return fs.readdirSync(dir).every((name) => ignore.includes(name));
}

/**
 * Restores `file` into the folders `config` names. Refuses a data directory (or another folder)
 * that holds something else unless `force`; reads and checks the whole backup into temporary
 * folders beside the targets, checks that its database opens, and only then renames them into
 * place, removing what they replace.
 */
export async function restoreSite(
  config: Config,
  file: string,
  options: { force: boolean },
): Promise<RestoreReport> {
  if (!fs.existsSync(file)) throw new BackupRefusedError(`There is no file ${file}.`);
  const manifest = await readManifest(file);
  const { folders } = siteFolders(config);
  const dataDir = folders[0]?.dir ?? "";
  const report: RestoreReport = { manifest, restored: [], unchanged: [], left: [] };
  const targets: { name: string; dir: string; part: Manifest["parts"][number] }[] = [];
  for (const part of manifest.parts) {
    const folder = folders.find((f) => f.name === part.name);
    if (!folder) {
      report.left.push({
        name: part.name,
        why:
          part.name === "pictures"
            ? "PICTURE_STORE=s3 here: copy them into the bucket yourself"
            : "this configuration has no folder for them",
      });
      continue;
    }
    targets.push({ name: part.name, dir: folder.dir, part });
  }
  if (!targets.some((t) => t.name === "database")) {
    throw new BackupRefusedError(`${file} holds no database.`);
  }

  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const lock = fs.existsSync(dataDir)
    ? await refuseInUse(() => acquireDataDirLock(dataDir, "news restore"))
    : null;
  const staged: { dir: string; staging: string }[] = [];
  try {
    // What would be replaced: refused unless --force, except a folder that already holds the same.
    const writing: typeof targets = [];
    const refused: string[] = [];
    for (const target of targets) {
      const nested = targets.some((t) => isNested(target.dir, t.dir));
      if (nested) {
        writing.push(target);
        continue;
      }
      const ignore = target.name === "database" ? [LOCK_FILE] : [];
      if (isEmptyDir(target.dir, ignore)) writing.push(target);
      else if (
        target.name !== "database" &&
        (await folderDigest(target.dir)) === target.part.sha256
      ) {
        report.unchanged.push({ name: target.name, dir: target.dir });
      } else if (options.force) writing.push(target);
      else refused.push(`${target.name} (${target.dir})`);
    }
    if (refused.length > 0) {
      throw new BackupRefusedError(
        `Not restoring over folders that hold something else: ${refused.join(", ")}. ` +
          "Add --force to replace them (what they hold now is removed once the restore is complete).",
      );
    }

    // Temporary folders beside each target (so a rename moves them), parts kept inside another
    // part's folder inside that one's temporary folder.
    const roots = writing.filter((t) => !writing.some((o) => isNested(t.dir, o.dir)));
    const stagingFor = new Map<string, string>();
    for (const root of roots) {
      fs.mkdirSync(path.dirname(root.dir), { recursive: true });
      const staging = fs.mkdtempSync(
        path.join(path.dirname(root.dir), `.${path.basename(root.dir)}.restoring-`),
      );
      staged.push({ dir: root.dir, staging });
      stagingFor.set(root.name, staging);
    }
    for (const target of writing) {
      if (stagingFor.has(target.name)) continue;
      const outer = roots.find((r) => isNested(target.dir, r.dir));
      const outerStaging = outer ? stagingFor.get(outer.name) : undefined;
      if (!outer || !outerStaging) continue;
      const staging = path.join(outerStaging, path.relative(outer.dir, target.dir));
      fs.mkdirSync(staging, { recursive: true });
      stagingFor.set(target.name, staging);
    }
    await extractBackup(file, () => stagingFor);

    const databaseStaging = stagingFor.get("database") ?? "";
    const check = await openDatabase(
      { kind: "pglite", dataDir: databaseStaging },
      { owner: "news restore" },
    );
    const opens = await check.ping();
    await check.close();
    if (!opens) throw new BackupRefusedError(`The database in ${file} does not open.`);

    // Into place: each old folder moved aside, the new one renamed in; the old ones removed last.
    const replaced: { dir: string; aside: string }[] = [];
    try {
      for (const { dir, staging } of staged) {
        if (fs.existsSync(dir)) {
          const aside = `${staging}.replaced`;
          fs.renameSync(dir, aside);
          replaced.push({ dir, aside });
        }
        fs.renameSync(staging, dir);
      }
    } catch (error) {
      for (const { dir, staging } of staged) {
        if (fs.existsSync(dir) && !fs.existsSync(staging)) fs.renameSync(dir, staging);
      }
      for (const { dir, aside } of replaced) fs.renameSync(aside, dir);
      throw error;
    }
    staged.length = 0;
    for (const { aside } of replaced) fs.rmSync(aside, { recursive: true, force: true });
    report.restored = writing.map(({ name, dir, part }) => ({
      name,
      dir,
      files: part.files,
      bytes: part.bytes,
    }));
    return report;
  } finally {
    for (const { staging } of staged) fs.rmSync(staging, { recursive: true, force: true });
    lock?.release();
  }
}
