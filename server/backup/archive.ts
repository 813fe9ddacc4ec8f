import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Header, Pack, Parser, ReadEntry } from "tar";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupFileError,
  listPart,
  MANIFEST,
  parseManifest,
  type Manifest,
  type ManifestPart,
  type PartSource,
} from "./manifest";

/**
 * The site's backup file (decision 031): a gzip'd tar whose first entry is `manifest.json`, which
 * names every folder and file of every part with its size and SHA-256; then each part's folders
 * and files under `<part>/`. Written under a temporary name and renamed when complete; read back
 * into folders of the caller's choosing, every file checked against the manifest on the way.
 */

/**
 * Writes the parts to `file` as one backup: under a temporary name beside it, renamed into place
 * only once complete and flushed to disk. A file that changes while it is being written fails the
 * backup (the caller holds the site stopped, so nothing should).
 */
export async function writeBackup(
  file: string,
  sources: readonly PartSource[],
  now = new Date(),
): Promise<{ manifest: Manifest; skipped: string[] }> {
  const target = path.resolve(file);
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString("hex")}.partial`,
  );
  const listed = [];
  for (const source of sources) {
    listed.push(await listPart({ ...source, skip: [...source.skip, temp, target] }));
  }
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now.toISOString(),
    parts: listed.map((l) => l.part),
  };
  // One entry at a time: the next is added once the pack has taken the last one whole (a pack
  // given several of its own entries at once counts them against its `jobs` and can stall).
  let taken: Promise<unknown> = Promise.resolve();
  const pack = new Pack({
    gzip: true,
    portable: true,
    onWriteEntry: (entry) => void (taken = once(entry, "end")),
  });
  const written = pipeline(pack, fs.createWriteStream(temp, { flags: "wx", mode: 0o600 }));
  const add = async (
    entryPath: string,
    type: "File" | "Directory",
    mode: number,
    size: number,
    fill: (entry: ReadEntry) => Promise<void>,
  ) => {
    const entry = new ReadEntry(new Header({ path: entryPath, mode, size, mtime: now, type }));
    pack.write(entry);
    const whole = taken;
    await fill(entry);
    await Promise.race([whole, written]);
  };
  try {
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 1));
    await add(MANIFEST, "File", 0o644, manifestBytes.length, async (entry) => {
      entry.end(manifestBytes);
    });
    for (const [i, { part }] of listed.entries()) {
      const dir = sources[i]?.dir ?? "";
      for (const d of part.dirs) {
        await add(`${part.name}/${d}`, "Directory", 0o755, 0, async (entry) => {
          entry.end();
        });
      }
      for (const e of part.entries) {
        await add(`${part.name}/${e.path}`, "File", e.mode, e.size, async (entry) => {
          const hash = createHash("sha256");
          let size = 0;
          if (e.size > 0) {
            for await (const chunk of fs.createReadStream(path.join(dir, e.path), {
              end: e.size - 1,
            }) as AsyncIterable<Buffer>) {
              hash.update(chunk);
              size += chunk.length;
              // A write that fails (a full disk) rejects `written`; no drain comes after it.
              if (!entry.write(chunk)) await Promise.race([once(entry, "drain"), written]);
            }
          }
          if (size !== e.size || hash.digest("hex") !== e.sha256) {
            throw new Error(`${path.join(dir, e.path)} changed while it was being backed up`);
          }
          entry.end();
        });
      }
    }
    pack.end();
    await written;
    const handle = await fs.promises.open(temp, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    fs.renameSync(temp, target);
  } catch (error) {
    pack.destroy();
    await written.catch(() => undefined);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return { manifest, skipped: listed.flatMap((l) => l.skipped) };
}

/** Reads the manifest alone, from the start of the file. */
export async function readManifest(file: string): Promise<Manifest> {
  let manifest: Manifest | undefined;
  const abort = new AbortController();
  try {
    await parse(file, abort.signal, (entry, fail) => {
      if (entry.path !== MANIFEST) return fail(`its first entry is not ${MANIFEST}`);
      collect(entry, (bytes) => {
        manifest = parseManifest(bytes, fail);
        // The rest is not read; a manifest refused (a newer version) says why instead.
        if (manifest) abort.abort();
      });
    });
  } catch (error) {
    if (!abort.signal.aborted) throw new BackupFileError(file, (error as Error).message);
  }
  if (!manifest) throw new BackupFileError(file, "it has no manifest");
  return manifest;
}

function collect(entry: ReadEntry, done: (bytes: Buffer) => void) {
  const chunks: Buffer[] = [];
  entry.on("data", (c: Buffer) => chunks.push(c));
  entry.on("end", () => done(Buffer.concat(chunks)));
}

/**
 * Streams `file` through the tar parser, calling `onEntry` for each entry; rejects with the first
 * failure (`fail(why)`, a gzip or tar error, a cut-short file).
 */
async function parse(
  file: string,
  signal: AbortSignal,
  onEntry: (entry: ReadEntry, fail: (why: string) => void) => void,
): Promise<void> {
  let failure: Error | undefined;
  const fail = (why: string) => {
    failure ??= new Error(why);
  };
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      if (failure) return entry.resume();
      onEntry(entry, fail);
    },
  });
  // Settled when the parser is done, or has failed (a gzip or tar error ends it early).
  const finished = new Promise<void>((resolve) => {
    parser.on("error", (error: Error) => {
      fail(
        /unexpected end of file|Truncated input/i.test(error.message)
          ? "it ends early (cut short)"
          : `it is damaged (${error.message})`,
      );
      resolve();
    });
    parser.on("end", () => resolve());
    parser.on("close", () => resolve());
  });
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    if (failure || signal.aborted) break;
    if (!parser.write(chunk)) await Promise.race([once(parser, "drain"), finished]);
  }
  if (!failure && !signal.aborted) {
    parser.end();
    await finished;
  }
  if (failure) throw failure;
}

/**
 * Why the folders chosen for the parts cannot hold what the manifest lists (the parts on each
 * disk added up, against the room its users may fill), or null when they can.
 */
function shortOfRoom(manifest: Manifest, staging: Map<string, string>): string | null {
  const needed = new Map<number, { dir: string; bytes: number }>();
  for (const part of manifest.parts) {
    const dir = staging.get(part.name);
    if (!dir) continue;
    const device = fs.statSync(dir).dev;
    const bytes = part.entries.reduce((sum, e) => sum + e.size, 0);
    const disk = needed.get(device) ?? { dir, bytes: 0 };
    needed.set(device, { dir, bytes: disk.bytes + bytes });
  }
  for (const { dir, bytes } of needed.values()) {
    const { bavail, bsize } = fs.statfsSync(dir);
    const free = bavail * bsize;
    if (bytes > free) {
      const mb = (n: number) => `${Math.ceil(n / 1024 / 1024)} MB`;
      return `it needs ${mb(bytes)} beside ${path.dirname(dir)}, which has ${mb(free)} free`;
    }
  }
  return null;
}

/**
 * Reads the whole backup into folders, checking every file against the manifest: `stagingFor`
 * names, once the manifest is read, the (empty, existing) folder each part goes to, or null to
 * leave a part out. Throws `BackupFileError` when anything is missing, extra, or not as the
 * manifest says; the caller then removes those folders.
 */
export async function extractBackup(
  file: string,
  stagingFor: (manifest: Manifest) => Map<string, string>,
): Promise<Manifest> {
  let manifest: Manifest | undefined;
  let staging = new Map<string, string>();
  const expected = new Map<string, ManifestPart["entries"][number]>();
  const dirs = new Set<string>();
  /** Each file written: settled once its stream has closed, rejected when it is not as listed. */
  const writes: { out: fs.WriteStream; done: Promise<void>; closed: Promise<void> }[] = [];
  try {
    await parse(file, new AbortController().signal, (entry, fail) => {
      if (!manifest) {
        if (entry.path !== MANIFEST) return fail(`its first entry is not ${MANIFEST}`);
        // The parser waits for this entry's end before the next one: the manifest is read first.
        return collect(entry, (bytes) => {
          manifest = parseManifest(bytes, fail);
          if (!manifest) return;
          staging = stagingFor(manifest);
          for (const part of manifest.parts) {
            for (const d of part.dirs) dirs.add(`${part.name}/${d}`);
            for (const e of part.entries) expected.set(`${part.name}/${e.path}`, e);
          }
          const short = shortOfRoom(manifest, staging);
          if (short) fail(short);
        });
      }
      const entryPath = entry.path.replace(/\/$/, "");
      const slash = entryPath.indexOf("/");
      const root = staging.get(entryPath.slice(0, slash));
      const rel = entryPath.slice(slash + 1);
      if (entry.type === "Directory" && dirs.delete(entryPath)) {
        if (root) fs.mkdirSync(path.join(root, rel), { recursive: true, mode: 0o755 });
        return entry.resume();
      }
      const wanted = expected.get(entryPath);
      if (entry.type !== "File" || !wanted) {
        entry.resume();
        return fail(`it holds ${entryPath}, which its manifest does not name`);
      }
      expected.delete(entryPath);
      // Its length is in its header: one that is not the listed one is not written at all.
      if (entry.size !== wanted.size) {
        entry.resume();
        return fail(`${entryPath} is not the file its manifest describes (damaged)`);
      }
      const hash = createHash("sha256");
      let size = 0;
      const check = () => {
        if (size !== wanted.size || hash.digest("hex") !== wanted.sha256) {
          fail(`${entryPath} is not the file its manifest describes (damaged)`);
        }
      };
      if (!root) {
        entry.on("data", (c: Buffer) => {
          hash.update(c);
          size += c.length;
        });
        entry.on("end", check);
        return;
      }
      const target = path.join(root, rel);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
      const out = fs.createWriteStream(target, { flags: "wx", mode: wanted.mode });
      const closed = new Promise<void>((resolve) => out.on("close", resolve));
      // Checked when the file is closed, which may be after the whole archive is read: the
      // failure is this promise's, awaited below.
      const done = new Promise<void>((resolve, reject) => {
        out.on("error", (error) => {
          // Not written (a full disk, a name too long): the rest of the archive is not read.
          fail(`${entryPath} could not be written (${error.message})`);
          entry.resume();
          reject(new Error(`${entryPath} could not be written (${error.message})`));
        });
        out.on("close", () => {
          if (size !== wanted.size || hash.digest("hex") !== wanted.sha256) {
            reject(new Error(`${entryPath} is not the file its manifest describes (damaged)`));
          } else resolve();
        });
      });
      // Read after the parse: no rejection may go unhandled before that.
      done.catch(() => undefined);
      writes.push({ out, done, closed });
      // What is checked is what is written: each chunk hashed as it goes to the file.
      entry.on("data", (c: Buffer) => {
        hash.update(c);
        size += c.length;
        if (!out.write(c)) {
          entry.pause();
          out.once("drain", () => entry.resume());
        }
      });
      entry.on("end", () => out.end());
    });
    const results = await Promise.allSettled(writes.map((w) => w.done));
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  } catch (error) {
    // Every file closed before the caller removes the folders they are in.
    for (const { out } of writes) out.destroy();
    await Promise.all(writes.map((w) => w.closed));
    if (error instanceof BackupFileError) throw error;
    throw new BackupFileError(file, (error as Error).message);
  }
  if (!manifest) throw new BackupFileError(file, "it has no manifest");
  const missing = [...expected.keys(), ...dirs];
  if (missing.length > 0) {
    throw new BackupFileError(
      file,
      `it ends early or misses ${missing.length} of the entries its manifest names (${missing[0] ?? ""}…)`,
    );
  }
  return manifest;
}
