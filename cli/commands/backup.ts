import path from "node:path";
import { BackupFileError } from "../../server/backup/manifest";
import { BackupRefusedError, backupSite, restoreSite } from "../../server/backup/site";
import { loadConfigOrExit, type Config } from "../../server/config";
import { UsageError, type Command } from "../command";
import { formatTable } from "../table";

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** On PostgreSQL the database's own tools do the database; the folders are copied beside it. */
function postgresAdvice(config: Config, command: "backup" | "restore"): string {
  const store = config.pictures.store;
  const pictures =
    store.kind === "s3"
      ? `the picture bucket s3://${store.bucket}/${store.prefix} (with the bucket's own tools)`
      : `the picture folder ${config.pictures.dir}`;
  const blog =
    config.blog.source === "local" && !config.blog.dir.startsWith(config.contentDir + path.sep)
      ? `, the blog folder ${config.blog.dir}`
      : "";
  return [
    "The site's database is PostgreSQL (DATABASE_URL): back it up with pg_dump and restore it with pg_restore,",
    "PostgreSQL's own tools:",
    '  pg_dump --format=custom --file=news.dump "$DATABASE_URL"',
    '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" news.dump',
    `and copy ${pictures}, the content folder ${config.contentDir}${blog} and the outbox folder ` +
      `${config.newsletter.outboxDir} beside it. \`news ${command}\` is for the embedded database.`,
  ].join("\n");
}

/** Runs `work` on the backup file named, for the embedded site only; a refusal is said (exit 1). */
async function onEmbeddedSite(
  positionals: string[],
  command: "backup" | "restore",
  work: (file: string, config: Config) => Promise<number>,
): Promise<number> {
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError("Name one backup file.");
  const config = loadConfigOrExit();
  if (config.database.kind === "postgres") {
    console.error(postgresAdvice(config, command));
    return 1;
  }
  try {
    return await work(file, config);
  } catch (error) {
    if (error instanceof BackupRefusedError || error instanceof BackupFileError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

export const backupCommand: Command = {
  name: "backup",
  summary:
    "Back up the embedded site (database, pictures, content, outbox) to one file; stop the site first.",
  usage: "news backup <file>   (a .tar.gz; the site must be stopped)",
  options: {},
  allowPositionals: true,
  async run({ positionals }) {
    return onEmbeddedSite(positionals, "backup", async (file, config) => {
      const report = await backupSite(config, file);
      console.log(`Backed up the site to ${report.file} (${mb(report.bytes)}):`);
      console.log(
        formatTable(
          ["part", "folder", "files", "size"],
          report.manifest.parts.map((p) => [p.name, p.from, String(p.files), mb(p.bytes)]),
        ),
      );
      for (const { name, dir } of report.absent) console.log(`No ${name} folder yet (${dir}).`);
      for (const { name, why } of report.left) console.log(`Not backed up: ${name}: ${why}.`);
      for (const skipped of report.skipped) {
        console.log(`Not backed up: ${skipped} (neither a file nor a folder).`);
      }
      return 0;
    });
  },
};

export const restoreCommand: Command = {
  name: "restore",
  summary:
    "Restore the embedded site from a backup file, checked whole first; stop the site first.",
  usage: "news restore <file> [--force]   (the site must be stopped)",
  options: {
    force: {
      type: "boolean",
      description:
        "replace a data directory or folder that holds something else (removed once the restore is complete)",
    },
  },
  allowPositionals: true,
  async run({ positionals, values }) {
    return onEmbeddedSite(positionals, "restore", async (file, config) => {
      const report = await restoreSite(config, file, { force: values.force === true });
      console.log(`Restored the backup of ${report.manifest.createdAt}:`);
      console.log(
        formatTable(
          ["part", "folder", "files", "size"],
          report.restored.map((p) => [p.name, p.dir, String(p.files), mb(p.bytes)]),
        ),
      );
      for (const { name, dir } of report.unchanged) {
        console.log(`Unchanged: ${name} (${dir}) already holds what the backup has.`);
      }
      for (const { name, why } of report.left) console.log(`Not restored: ${name}: ${why}.`);
      console.log("Start the site: it applies any newer migrations as it starts.");
      return 0;
    });
  },
};
