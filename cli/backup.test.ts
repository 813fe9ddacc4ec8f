import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folderDigest } from "../server/backup/manifest";
import { openDatabase, type DatabaseHandle } from "../server/db/client";
import { startTestApp } from "../server/http/test-app";

/**
 * `news backup` and `news restore` on a real site: the sample feeds stored, a content folder of
 * its own (with another site name, so a page shows which content it read), a picture and a mail;
 * backed up, restored into a fresh data directory, and every page of both sites compared.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), "news-backup-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const original = {
  dataDir: path.join(root, "site"),
  contentDir: path.join(root, "content"),
};
const restored = {
  dataDir: path.join(root, "restored", "data"),
  contentDir: path.join(root, "restored", "content"),
};
const archive = path.join(root, "backups", "site.tar.gz");

function news(
  args: string[],
  site: { dataDir: string; contentDir: string },
  env: Record<string, string> = {},
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/news.ts", ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        DATA_DIR: site.dataDir,
        CONTENT_DIR: site.contentDir,
        BLOG_DIR: path.join(site.contentDir, "blog"),
        FEEDS_FILE: "config/feeds.sample.json",
        SITE_URL: "http://127.0.0.1:3000",
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file and folder under `dir`, each file with its bytes: two equal trees give equal maps. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    files.set(rel, entry.isFile() ? fs.readFileSync(full).toString("base64") : "folder");
  }
  return files;
}

/** Everything `dir` holds now, to show a refused restore left it as it was. */
const snapshot = (dir: string) => (fs.existsSync(dir) ? tree(dir) : null);

describe("news backup and news restore", { timeout: 300_000 }, () => {
  beforeAll(async () => {
    fs.cpSync("content", original.contentDir, { recursive: true });
    const siteFile = path.join(original.contentDir, "site.yaml");
    fs.writeFileSync(
      siteFile,
      fs.readFileSync(siteFile, "utf8").replace(/^name: .*$/m, "name: Backed Up Ledger"),
    );
    const ingest = await news(["ingest"], original);
    expect(ingest.code, ingest.stderr).toBe(0);
    const picture = path.join(original.dataDir, "pictures", "originals", "ab", "abcdef");
    fs.mkdirSync(path.dirname(picture), { recursive: true });
    fs.writeFileSync(picture, Buffer.alloc(70_000, 9));
    fs.mkdirSync(path.join(original.dataDir, "outbox"));
    fs.writeFileSync(
      path.join(original.dataDir, "outbox", "issue-1.1@127.0.0.1.eml"),
      "Subject: x\r\n\r\nx",
    );
  });

  it("refuses while the site holds the data directory, and writes no file", async () => {
    const site = await openDatabase(
      { kind: "pglite", dataDir: original.dataDir },
      { owner: "the web server" },
    );
    fs.mkdirSync(path.dirname(archive));
    try {
      const result = await news(["backup", archive], original);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^Stop the site first: the embedded database in ${original.dataDir} is in use by the web server \\(process ${process.pid}\\)`,
        ),
      );
      expect(fs.readdirSync(path.dirname(archive))).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it("on PostgreSQL, names pg_dump and pg_restore and the folders to copy, and writes nothing", async () => {
    for (const command of ["backup", "restore"]) {
      const result = await news([command, archive], original, {
        DATABASE_URL: "postgres://news@db.invalid/news",
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('pg_dump --format=custom --file=news.dump "$DATABASE_URL"');
      expect(result.stderr).toContain("pg_restore --clean --if-exists");
      expect(result.stderr).toContain(`the content folder ${original.contentDir}`);
      expect(result.stderr).toContain(`the outbox folder ${path.join(original.dataDir, "outbox")}`);
    }
    expect(fs.existsSync(archive)).toBe(false);
  });

  it("backs up, restores into a fresh data directory, and every page is the same", async () => {
    const backup = await news(["backup", archive], original);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`Backed up the site to ${archive}`);
    expect(backup.stdout).toMatch(/^database\s/m);
    expect(backup.stdout).toMatch(/^pictures\s.+\s1\s+0\.1 MB$/m);
    // Nothing but the archive: no temporary file left beside it.
    expect(fs.readdirSync(path.dirname(archive))).toEqual(["site.tar.gz"]);

    const restore = await news(["restore", archive], restored);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^database\s/m);
    expect(fs.readdirSync(path.dirname(restored.dataDir)).sort()).toEqual(["content", "data"]);
    for (const folder of ["pictures", "outbox"]) {
      expect(tree(path.join(restored.dataDir, folder))).toEqual(
        tree(path.join(original.dataDir, folder)),
      );
    }
    expect(tree(restored.contentDir)).toEqual(tree(original.contentDir));

    const [before, after] = await Promise.all([pages(original), pages(restored)]);
    expect(before.size).toBeGreaterThan(250);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [url, html] of before) expect(after.get(url), url).toBe(html);
    expect(before.get("/")).toContain("Backed Up Ledger");
  });

  it("refuses to restore over a data directory that holds something, unless --force", async () => {
    const was = snapshot(restored.dataDir);
    const refused = await news(["restore", archive], restored);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `Not restoring over folders that hold something else: database (${restored.dataDir}).`,
    );
    expect(snapshot(restored.dataDir)).toEqual(was);

    fs.writeFileSync(path.join(restored.dataDir, "outbox", "later.eml"), "Subject: y\r\n\r\ny");
    const forced = await news(["restore", archive, "--force"], restored);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.existsSync(path.join(restored.dataDir, "outbox", "later.eml"))).toBe(false);
    expect(await folderDigest(restored.contentDir)).toBe(await folderDigest(original.contentDir));
  });

  it.each([
    ["with bytes flipped", (bytes: Buffer) => flip(bytes, Math.floor(bytes.length / 2))],
    ["with its first bytes flipped", (bytes: Buffer) => flip(bytes, 40)],
    ["cut short", (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length * 0.6))],
    ["cut short by a few bytes", (bytes: Buffer) => bytes.subarray(0, bytes.length - 3)],
  ])("a backup %s is refused with a clear error and changes nothing", async (_, damage) => {
    const bad = path.join(root, "backups", "bad.tar.gz");
    fs.writeFileSync(bad, damage(fs.readFileSync(archive)));
    const target = {
      dataDir: path.join(root, "into", "data"),
      contentDir: path.join(root, "into", "content"),
    };
    {
      const result = await news(["restore", bad], target);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          // Where the damage is found depends on the bytes: gzip's check, or a file's own digest
          // when the flipped byte still inflates (which happens first for a byte mid-file).
          `^${bad.replace(/[.]/g, "\\.")} cannot be restored: (it (is damaged|ends early)|\\S+ is not the file its manifest describes \\(damaged\\)).*Nothing was changed\\.\\n$`,
        ),
      );
      expect(
        fs.existsSync(path.join(root, "into")) ? fs.readdirSync(path.join(root, "into")) : [],
      ).toEqual([]);
    }
    // Over a restored site too: nothing of it changes.
    const was = snapshot(restored.dataDir);
    expect((await news(["restore", bad, "--force"], restored)).code).toBe(1);
    expect(snapshot(restored.dataDir)).toEqual(was);
    expect(fs.readdirSync(path.dirname(restored.dataDir)).sort()).toEqual(["content", "data"]);
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  for (let i = at; i < at + 8; i++) copy[i] = (copy[i] ?? 0) ^ 0xff;
  return copy;
}

/**
 * Every page the site's sitemaps name, and the pages no sitemap lists (search, feeds, sitemaps
 * themselves), rendered by the production build over the site's database and content.
 */
async function pages(site: { dataDir: string; contentDir: string }): Promise<Map<string, string>> {
  const database: DatabaseHandle = await openDatabase(
    { kind: "pglite", dataDir: site.dataDir },
    { owner: "a test" },
  );
  const app = await startTestApp(database, {
    CONTENT_DIR: site.contentDir,
    BLOG_DIR: path.join(site.contentDir, "blog"),
    PICTURES_DIR: path.join(site.dataDir, "pictures"),
    SITE_URL: "http://127.0.0.1:3000",
    PAGE_CACHE_MB: "0",
  });
  try {
    const get = async (url: string) => {
      const response = await fetch(`${app.base}${url}`);
      return `${response.status}\n${mask(await response.text(), response.headers.get("x-request-id"))}`;
    };
    const urls = new Set([
      "/",
      "/search?q=San+Diego",
      "/rss.xml",
      "/blog/rss.xml",
      "/news-sitemap.xml",
      "/sitemap.xml",
      "/robots.txt",
    ]);
    const index = await get("/sitemap.xml");
    for (const sitemap of locs(index)) {
      urls.add(sitemap);
      for (const page of locs(await get(sitemap))) urls.add(page);
    }
    const result = new Map<string, string>();
    for (const url of [...urls].sort()) result.set(url, await get(url));
    return result;
  } finally {
    await app.close();
    await database.close();
  }
}

/** The paths of a sitemap's `<loc>` addresses. */
function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? "/").pathname);
}

/**
 * What differs between two renders of the same page whatever the data: the Content-Security-Policy
 * nonce and the request's id (X-Request-Id, which the page's loader data carries) are new for every
 * response, and a form's token is the time it was rendered, signed with the site's secret
 * (server/forms/form-token.ts): its time differs.
 */
function mask(html: string, requestId: string | null): string {
  const masked = html
    .replace(/nonce="[^"]*"/g, 'nonce="…"')
    .replace(/\b\d{13}\.[\w-]{43}\b/g, "…form token…");
  return requestId ? masked.replaceAll(requestId, "…request id…") : masked;
}
