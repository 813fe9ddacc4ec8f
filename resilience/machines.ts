/**
 * Several machines for real (issue #34): two web "machines" from the production build, each with a
 * data folder and a page cache of its own, on one PostgreSQL database, their pictures in one S3
 * bucket (s3rver), and one Varnish (Debian's varnishd, config/varnish/default.vcl with a
 * round-robin director over both) in front, purged by key (PURGER=varnish). The first machine keeps
 * the ingest schedule and reads feeds from a loopback feed server whose items link photos on
 * another loopback host; the second keeps no schedule. Shows that every picture address either
 * machine's pages name answers from both and through Varnish, that a take-down and a banner made on
 * one machine reach the other and Varnish within 2 s, and that a machine killed while making
 * copies leaves the other able to answer every one of them and no broken object in the bucket.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import pg from "pg";
import { linkFeedPhotos, type LinkedPhoto } from "../server/test-support/photo-feeds";
import { startPhotoHost } from "../server/test-support/photo-host";
import { ensurePhotos, PHOTO_SPECS } from "../server/test-support/photos";
import { formatMarkdownTable } from "../server/test-support/report";
import { sampleSiteEnv } from "../scripts/sample-site.js";
import { WEB_PROCESS_ARGS, webProcessEnv } from "../scripts/web-process.js";
import { freePort } from "../server/http/free-port";
import { s3ClientFor } from "../server/images/s3-store";
import { startFixtureServer } from "../server/ingest/test-server";
import { startS3Server } from "../server/test-support/s3-server";
import { CATEGORIES } from "../shared/categories";
import { verdictList, type CheckResult, type Verdict } from "./check";
import { createRunDatabase, dropStaleDatabases } from "./databases";
import { seconds } from "./machines/probes";
import {
  addEditor,
  banner,
  killMidCopy,
  picturesEverywhere,
  takeDown,
  type Cluster,
  type MachineName,
} from "./machines/scenarios";
import { startVarnish, VARNISHD } from "./machines/varnish";
import {
  get,
  isRunning,
  pollUntil,
  startProcess,
  stopChild,
  tail,
  waitForOk,
  type Child,
} from "./processes";

const ID = "machines";
const TITLE = "Several machines: one database, one bucket, Varnish in front";
/** Feeds whose pictures become photos on the photo host (the others keep the sample SVGs). */
const PHOTO_CATEGORIES = ["local-news", "sports", "business"];
/** Photos the feeds link, round-robin: few, so the pages name a bounded number of copies. */
const PHOTO_NAMES = ["trolley-stop", "market-stalls", "harbor-dawn", "mayor-portrait"];

export async function machinesCheck(): Promise<CheckResult> {
  // --- What the check needs, said plainly: it fails, never skips, without them ------------------
  const varnishd = VARNISHD.find((file) => fs.existsSync(file));
  if (!varnishd) {
    throw new Error(
      "varnishd is not installed: run `node scripts/ensure-varnish.js` (as root it installs Debian's varnish package) or put Varnish 7 at /usr/sbin/varnishd.",
    );
  }
  if (!fs.existsSync("build/web/main.js")) {
    throw new Error("no production build (build/web/main.js): run `npm run build` first.");
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: adminUrl, application_name: "resilience" });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL does not answer at ${new URL(adminUrl).host} (${error instanceof Error ? error.message : String(error)}): the machines share one database, so this check needs a PostgreSQL server (set TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test).`,
    );
  }
  admin.on("error", () => undefined);
  await dropStaleDatabases(admin, "machines");
  const { name, url: databaseUrl } = await createRunDatabase(admin, adminUrl, "machines");

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "resilience-machines-"));
  fs.chmodSync(work, 0o755);
  const cleanups: (() => Promise<void>)[] = [];
  const children: Child[] = [];
  /** Children stopped on purpose: their end is no failure. */
  const killed = new Set<Child>();
  const verdicts: Verdict[] = [];
  const notes: string[] = [];
  const rows: (string | number)[][] = [];
  // An interrupted run stops the S3 server too (run.ts stops the processes it knows of).
  let stopS3: (() => Promise<void>) | undefined;
  const onExit = () => void stopS3?.();
  process.once("exit", onExit);

  try {
    // --- The shared pieces: the bucket, the photo host, the feeds --------------------------------
    const s3 = await startS3Server({ bucket: "machines-pictures" });
    stopS3 = () => s3.close();
    cleanups.push(() => s3.close());
    const client = s3ClientFor(s3.storeConfig());
    cleanups.push(async () => client.destroy());
    /** Every key in the bucket. */
    const listKeys = async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    };
    const readObject = async (key: string) => {
      const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
      return (await object.Body?.transformToByteArray()) ?? new Uint8Array();
    };
    const photos = await ensurePhotos(
      PHOTO_SPECS.filter((spec) => PHOTO_NAMES.includes(spec.name)),
    );
    const photoHost = await startPhotoHost(photos);
    cleanups.push(() => photoHost.close());
    const ports = { "machine-1": await freePort(), "machine-2": await freePort() };
    const varnishPort = await freePort();
    const varnishUrl = `http://127.0.0.1:${varnishPort}`;
    const base = (machine: MachineName) => `http://127.0.0.1:${ports[machine]}`;
    const feedServer = await startFixtureServer();
    cleanups.push(() => feedServer.close());
    const sample = JSON.parse(fs.readFileSync("config/feeds.sample.json", "utf8")) as Record<
      string,
      string[]
    >;
    let linked = 0;
    const next = (): LinkedPhoto => {
      const photo = photos[linked++ % photos.length];
      if (!photo) throw new Error("no photos");
      return { url: photoHost.url(photo), photo };
    };
    const feeds: Record<string, string[]> = {};
    for (const [category, files] of Object.entries(sample)) {
      feeds[category] = files.map((file, i) => {
        const xml = fs.readFileSync(file, "utf8");
        // The other feeds' sample pictures are the site's own files, on its public origin (as
        // when the feeds are read from files), never fetched.
        const body = PHOTO_CATEGORIES.includes(category)
          ? linkFeedPhotos(xml, next)
          : xml.replace(/(?<![\w/.])images\/sample\//g, `${varnishUrl}/images/sample/`);
        const feedPath = `/feeds/${category}-${i}.xml`;
        feedServer.route(feedPath, (_req, res) => {
          res.writeHead(200, { "content-type": "application/rss+xml" }).end(body);
        });
        return feedServer.url(feedPath);
      });
    }
    const feedsFile = path.join(work, "feeds.json");
    fs.writeFileSync(feedsFile, JSON.stringify(feeds, null, 2));
    const categories = CATEGORIES.flatMap((c) => (c.path ? [c.path] : []));

    // --- The machines --------------------------------------------------------------------------
    const machineEnv = (machine: MachineName, ingest: boolean) => {
      const dataDir = path.join(work, machine);
      fs.mkdirSync(dataDir);
      return webProcessEnv(
        sampleSiteEnv(ports[machine], dataDir, {
          DATABASE_URL: databaseUrl,
          // One public address for both, as behind a load balancer.
          SITE_URL: varnishUrl,
          FEEDS_FILE: feedsFile,
          IMAGE_FETCH_ALLOW_PRIVATE: "true",
          ...s3.env(),
          PURGER: "varnish",
          VARNISH_URLS: varnishUrl,
          // Only a change's notice may refresh a machine's cached page.
          PAGE_CACHE_SECONDS: "3600",
          // The first machine's schedule passes at its start, then not again during the check.
          INGEST_INTERVAL_MINUTES: ingest ? "60" : "0",
          LOG_LEVEL: "info",
          PGAPPNAME: machine,
        }),
      );
    };
    const startMachine = (machine: MachineName, ingest: boolean) => {
      const child = startProcess(
        machine,
        process.execPath,
        WEB_PROCESS_ARGS,
        machineEnv(machine, ingest),
        // Its own process group: a kill takes its picture maker with it, as a machine's end does.
        { group: true, logFile: path.join(work, `${machine}.log`) },
      );
      children.push(child);
      return child;
    };
    const waitUntil = (what: string, test: () => Promise<boolean>, timeoutMs: number) =>
      pollUntil(what, test, timeoutMs, {
        children,
        stoppedOnPurpose: (child) => killed.has(child),
        intervalMs: 50,
      });

    console.log(
      `machines: database ${name}, bucket at ${s3.endpoint}; machine 1 starts and ingests…`,
    );
    const startedAt = Date.now();
    // Other work on the machine slows the copies most: said with the numbers.
    const loadAtStart = os.loadavg()[0] ?? 0;
    const machine1 = startMachine("machine-1", true);
    // The first machine migrates the database; the second starts on it once it answers.
    await waitForOk(`${base("machine-1")}/healthz`, machine1);
    const machine2 = startMachine("machine-2", false);
    await waitForOk(`${base("machine-2")}/healthz`, machine2);

    // Varnish, with the project's VCL and both machines behind it.
    const varnish = startVarnish(varnishd, path.join(work, "varnish"), varnishPort, [
      ports["machine-1"],
      ports["machine-2"],
    ]);
    children.push(varnish);
    await waitUntil(
      "Varnish to answer",
      async () => (await get(`${varnishUrl}/healthz`, 2_000).catch(() => null))?.status === 200,
      20_000,
    );

    // The first machine's pass: articles and their photos into the database and the bucket.
    await waitUntil(
      "machine 1's ingest pass",
      async () => machine1.lines.some((line) => line.includes('"ingest pass finished"')),
      90_000,
    );
    const readyMs = Date.now() - startedAt;
    const passLine = machine1.lines.find((line) => line.includes('"ingest pass finished"')) ?? "{}";
    const pass = JSON.parse(passLine) as {
      fetched?: number;
      failed?: number;
      inserted?: number;
      pictures?: { fetched?: number; failed?: number };
    };
    const db = new pg.Pool({
      connectionString: databaseUrl,
      max: 2,
      application_name: "resilience",
    });
    db.on("error", () => undefined);
    cleanups.push(() => db.end());
    const articles = Number(
      (await db.query<{ n: string }>("SELECT count(*) AS n FROM articles")).rows[0]?.n ?? 0,
    );
    notes.push(
      `Machine 1's first pass (its schedule's, at start) read ${pass.fetched ?? "?"} feeds (${pass.failed ?? "?"} failed), stored ${pass.inserted ?? "?"} articles (${articles} in the database) and fetched ${pass.pictures?.fetched ?? "?"} photo addresses into the bucket (${pass.pictures?.failed ?? "?"} pictures failed); the pass was over ${seconds(readyMs)} after machine 1 was started.`,
    );

    // --- The scenarios, one after another on the same machines ---------------------------------
    const cluster: Cluster = {
      base,
      varnishUrl,
      work,
      categories,
      machine1,
      killed,
      waitUntil,
      listKeys,
      readObject,
    };
    const findings = { verdicts, rows };
    const hashes = await picturesEverywhere(cluster, findings);
    addEditor(databaseUrl);
    await takeDown(cluster, findings);
    await banner(cluster, findings);
    await killMidCopy(cluster, findings, hashes);

    notes.push(
      `Load average (1 min) at the start ${loadAtStart.toFixed(1)}, at the end ${(os.loadavg()[0] ?? 0).toFixed(1)}, on ${os.cpus().length} cores: the copies' times grow with other work on the machine; the reach times barely do.`,
    );
    const code = (await stopChild(machine2)).code;
    await stopChild(varnish);
    notes.push(`Machine 2 stopped with exit code ${code} on SIGTERM.`);
  } finally {
    for (const child of children) if (isRunning(child)) await stopChild(child, "SIGKILL");
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    process.off("exit", onExit);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    if (verdicts.length === 0 || verdicts.some((v) => !v.pass)) {
      console.error(children.flatMap((child) => tail(child, 20)).join("\n"));
    }
    fs.rmSync(work, { recursive: true, force: true });
  }

  const body = `${formatMarkdownTable(["measured", "value"], rows)}

${verdictList(verdicts)}

${notes.join("\n\n")}

How: a fresh PostgreSQL database; s3rver (server/test-support/s3-server.ts) as the bucket; two web processes from the production build (\`node ${WEB_PROCESS_ARGS.join(" ")}\`, as \`npm start\`), each with its own \`DATA_DIR\` and page cache (\`PAGE_CACHE_SECONDS=3600\`, so only a change's notice refreshes a page), both with \`PICTURE_STORE=s3\`, \`PURGER=varnish\` and the same \`SITE_URL\`; machine 1 with \`INGEST_INTERVAL_MINUTES=60\` (its schedule's pass at start), machine 2 with \`0\` (no schedule). Varnish is Debian's varnishd with config/varnish/default.vcl, its backend replaced by a round-robin director over the two machines (\`machinesVcl\`). The feeds are the bundled sample feeds served by a loopback feed server; those of ${PHOTO_CATEGORIES.join(", ")} link ${PHOTO_NAMES.length} photos (server/test-support/photos.ts) on a photo host at another loopback address (server/test-support/photo-host.ts). Times are from the newsroom's 303 answer to the first poll (every 50 ms) that saw the change. For the kill, focused cuts that no page names are asked of machine 1 at once, and it is killed with its process group once a fifth of them are done.`;
  const summary = verdicts.every((v) => v.pass)
    ? `${rows[0]?.[1] ?? ""} pictures; take-down ${rows[1]?.[1] ?? ""} / ${rows[2]?.[1] ?? ""}; banner ${rows[3]?.[1] ?? ""} / ${rows[4]?.[1] ?? ""}; kill mid-copy: nothing lost`
    : `FAILED: ${verdicts.filter((v) => !v.pass).length} of ${verdicts.length} requirements`;
  return { id: ID, title: TITLE, verdicts, summary, body };
}
