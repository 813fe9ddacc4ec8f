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
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import pg from "pg";
import sharp from "sharp";
import { pagePictures } from "../server/test-support/page-pictures";
import { linkFeedPhotos, type LinkedPhoto } from "../server/test-support/photo-feeds";
import { startPhotoHost } from "../server/test-support/photo-host";
import { ensurePhotos, PHOTO_SPECS } from "../server/test-support/photos";
import { formatMarkdownTable } from "../server/test-support/report";
import { sampleSiteEnv } from "../scripts/sample-site.js";
import { WEB_PROCESS_ARGS, webProcessEnv } from "../scripts/web-process.js";
import { freePort } from "../server/http/free-port";
import { s3ClientFor } from "../server/images/s3-store";
import { startFixtureServer } from "../server/ingest/test-server";
import { staffClient } from "../server/staff/test-client";
import { startS3Server } from "../server/test-support/s3-server";
import { CATEGORIES } from "../shared/categories";
import { dateToSanDiegoLocal } from "../shared/san-diego-time";
import { verdictList, type CheckResult, type Verdict } from "./check";
import {
  get,
  isRunning,
  sleep,
  startProcess,
  stopChild,
  tail,
  waitForOk,
  type Answer,
  type Child,
} from "./processes";

const ID = "machines";
const TITLE = "Several machines: one database, one bucket, Varnish in front";
/** The longest a change may take to reach the other machine and Varnish. */
const REACH_MS = 2_000;
/** Feeds whose pictures become photos on the photo host (the others keep the sample SVGs). */
const PHOTO_CATEGORIES = ["local-news", "sports", "business"];
/** Photos the feeds link, round-robin: few, so the pages name a bounded number of copies. */
const PHOTO_NAMES = ["trolley-stop", "market-stalls", "harbor-dawn", "mayor-portrait"];
/** Copies asked of machine 1 at once before it is killed: focused cuts no page names. */
const KILL_FOCI = [
  [10, 20],
  [30, 70],
  [60, 40],
  [85, 15],
  [45, 90],
  [20, 55],
] as const;
const PASSWORD = "machines check password, long enough";
const EDITOR = "editor@machines.example.org";

type MachineName = "machine-1" | "machine-2";

const VARNISHD = ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"];

/**
 * config/varnish/default.vcl with its one backend replaced by the two machines behind a
 * round-robin director; everything else (bans by key, lifetimes, headers) as the project ships it.
 */
export function machinesVcl(defaultVcl: string, ports: readonly [number, number]): string {
  const backend = /backend default \{[^}]*\}\n/;
  if (!backend.test(defaultVcl)) throw new Error("default.vcl has no `backend default { … }`");
  const backends = ports
    .map(
      (port, i) =>
        `backend machine${i + 1} {\n    .host = "127.0.0.1";\n    .port = "${port}";\n}\n`,
    )
    .join("\n");
  return `${defaultVcl.replace(backend, `import directors;\n\n${backends}`)}
# Added for the check: both machines behind one Varnish, in turn.
sub vcl_init {
    new machines = directors.round_robin();
${ports.map((_, i) => `    machines.add_backend(machine${i + 1});`).join("\n")}
}

sub vcl_recv {
    set req.backend_hint = machines.backend();
}
`;
}

/** Runs `task` over `items`, `width` at a time. */
async function pool<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index] as T);
      }
    }),
  );
  return results;
}

/** A GET that answers its status (0 when no answer came) and its body's bytes. */
async function getBytes(url: string, timeoutMs = 30_000) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, type: response.headers.get("content-type") ?? "", bytes };
  } catch {
    return { status: 0, type: "", bytes: Buffer.alloc(0) };
  }
}

/** Whether `bytes` decode to pixels with sharp (every pixel, not only the header). */
async function decodes(bytes: Uint8Array): Promise<boolean> {
  try {
    const { info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    return info.width > 0 && info.height > 0;
  } catch {
    return false;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The Breaking banner's text on a home page, if any. */
const bannerOf = (body: string) =>
  /<strong class="mr-2 uppercase">Breaking<\/strong>([\s\S]*?)<\/p>/.exec(body)?.[1] ?? "";

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
  // An interrupted run could not drop its database: those of runs no longer alive go now.
  const earlier = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname ~ '^machines_[0-9]+_[0-9a-f]{6}$'",
  );
  for (const { datname } of earlier.rows) {
    const pid = Number(datname.split("_")[1]);
    if (pid !== process.pid && !isAlive(pid)) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    }
  }
  const name = `machines_${process.pid}_${randomBytes(3).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const databaseUrl = dbUrl.toString();

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
    const waitUntil = async (what: string, test: () => Promise<boolean>, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (await test()) return Date.now();
        for (const child of children) {
          if (!isRunning(child) && !killed.has(child)) {
            throw new Error(
              [`${child.name} stopped while waiting for ${what}:`, ...tail(child)].join("\n"),
            );
          }
        }
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
        await sleep(50);
      }
    };

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
    const varnishDir = path.join(work, "varnish");
    fs.mkdirSync(varnishDir, { mode: 0o777 });
    fs.chmodSync(varnishDir, 0o777);
    const vclFile = path.join(varnishDir, "machines.vcl");
    fs.writeFileSync(
      vclFile,
      machinesVcl(fs.readFileSync("config/varnish/default.vcl", "utf8"), [
        ports["machine-1"],
        ports["machine-2"],
      ]),
      { mode: 0o644 },
    );
    const compiled = spawnSync(varnishd, ["-C", "-f", vclFile, "-n", path.join(varnishDir, "c")], {
      encoding: "utf8",
    });
    if (compiled.status !== 0)
      throw new Error(`the check's VCL does not compile:\n${compiled.stderr}`);
    const varnish = startProcess(
      "varnish",
      varnishd,
      [
        "-F",
        "-n",
        path.join(varnishDir, "n"),
        "-a",
        `127.0.0.1:${varnishPort}`,
        "-f",
        vclFile,
        "-s",
        "malloc,64m",
        "-T",
        "none",
        "-p",
        "ban_lurker_sleep=0.01",
      ],
      { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      { group: true },
    );
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

    // --- 1. Every picture address on either machine's pages, from both and through Varnish -------
    console.log("machines: every picture address on the home and category pages, from each…");
    const pages = ["/", ...categories];
    const addresses = new Set<string>();
    const pageStatus: string[] = [];
    for (const machine of ["machine-1", "machine-2"] as const) {
      for (const page of pages) {
        const answer = await get(`${base(machine)}${page}`);
        if (answer.status !== 200) pageStatus.push(`${machine} ${page} ${answer.status}`);
        for (const address of pagePictures(answer.body, varnishUrl).stored) addresses.add(address);
      }
    }
    const hashes = [...new Set([...addresses].map((a) => a.split("/")[2] ?? ""))];
    const list = [...addresses];
    const picturesStarted = Date.now();
    // Machine 2 first: it has no folder of pictures, so each answer comes from the bucket or is
    // made from the bucket's original there and then.
    const answered = { "machine-2": 0, "machine-1": 0, varnish: 0 };
    const failures: string[] = [];
    for (const [who, origin] of [
      ["machine-2", base("machine-2")],
      ["machine-1", base("machine-1")],
      ["varnish", varnishUrl],
    ] as const) {
      const results = await pool(list, 4, (address) => getBytes(`${origin}${address}`));
      results.forEach((result, i) => {
        if (result.status === 200 && result.type.startsWith("image/")) answered[who]++;
        else if (failures.length < 5) failures.push(`${who} ${list[i]} ${result.status}`);
      });
    }
    const picturesMs = Date.now() - picturesStarted;
    const allAnswered = Object.values(answered).every((n) => n === list.length);
    // The pictures are the bucket's: neither machine keeps any in its own folder.
    const localFiles = (["machine-1", "machine-2"] as const).reduce(
      (n, machine) => n + filesUnder(path.join(work, machine, "pictures")),
      0,
    );
    verdicts.push({
      pass:
        list.length > 0 &&
        hashes.length > 0 &&
        allAnswered &&
        pageStatus.length === 0 &&
        localFiles === 0,
      text: `every picture address on either machine's home and ${categories.length} category pages answers 200 from both machines and through Varnish: ${list.length} addresses of ${hashes.length} pictures; machine 2 (asked first) ${answered["machine-2"]}, machine 1 ${answered["machine-1"]}, Varnish ${answered.varnish} (${seconds(picturesMs)} for all three); picture files in the machines' own folders: ${localFiles}${failures.length > 0 ? `; failed: ${failures.join(", ")}` : ""}${pageStatus.length > 0 ? `; pages not 200: ${pageStatus.join(", ")}` : ""}`,
    });
    rows.push([
      "picture addresses answered (machine 2, machine 1, Varnish)",
      `${answered["machine-2"]}, ${answered["machine-1"]}, ${answered.varnish} of ${list.length}`,
    ]);

    // --- Staff: an editor added the way an operator does (`news staff add`) ---------------------
    const added = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "cli/news.ts",
        "staff",
        "add",
        EDITOR,
        "--role",
        "editor",
        "--password-stdin",
      ],
      { input: `${PASSWORD}\n`, encoding: "utf8", env: machineEnvFor(databaseUrl) },
    );
    if (added.status !== 0) throw new Error(`news staff add failed:\n${added.stderr}`);

    // --- 2. A take-down on machine 1: 410 on machine 2 and through Varnish within 2 s -----------
    console.log("machines: a take-down on machine 1, seen on machine 2 and through Varnish…");
    const home = await get(`${varnishUrl}/`);
    const story = /href="\/article\/([^"#?]+)"/.exec(home.body)?.[1];
    if (!story) throw new Error("the home page links no article");
    const article = `/article/${story}`;
    // Both caches keep the story's page: machine 2's own page cache and Varnish.
    for (let i = 0; i < 2; i++) {
      await get(`${base("machine-2")}${article}`);
      await get(`${varnishUrl}${article}`);
    }
    const cachedBefore = `machine 2 ${String((await get(`${base("machine-2")}${article}`)).headers["x-cache"])}, Varnish ${varnishHit(await get(`${varnishUrl}${article}`)) ? "HIT" : "MISS"}`;
    const one = staffClient({ base: () => base("machine-1"), password: PASSWORD });
    const signedIn1 = await one.signedIn(EDITOR, `/newsroom/stories/${story}`);
    const down = await one.post(
      `/newsroom/stories/${story}`,
      { _csrf: signedIn1.csrf, intent: "take-down", reason: "Legal request" },
      signedIn1.cookie,
    );
    const downAt = Date.now();
    if (down.status !== 303) throw new Error(`the take-down answered ${down.status}`);
    const [goneOn2, goneVarnish] = await Promise.all([
      reached(
        () => get(`${base("machine-2")}${article}`),
        (a) => a.status === 410,
      ),
      reached(
        () => get(`${varnishUrl}${article}`),
        (a) => a.status === 410,
      ),
    ]);
    const homeAfter = await get(`${varnishUrl}/`);
    const offHome = !homeAfter.body.includes(`/article/${story}"`);
    const took = (at: number | null) =>
      at === null ? `not within ${seconds(10_000)}` : seconds(at - downAt);
    verdicts.push({
      pass:
        goneOn2 !== null &&
        goneVarnish !== null &&
        goneOn2 - downAt <= REACH_MS &&
        goneVarnish - downAt <= REACH_MS &&
        offHome,
      text: `a take-down posted to machine 1's newsroom (signed in as an editor added with \`news staff add\`) answers 410 on machine 2 after ${took(goneOn2)} and through Varnish after ${took(goneVarnish)} (at most ${seconds(REACH_MS)}; cached before: ${cachedBefore}); the home page through Varnish then ${offHome ? "no longer links it" : "STILL LINKS IT"}`,
    });
    rows.push(["take-down on machine 1 → 410 on machine 2", took(goneOn2)]);
    rows.push(["take-down on machine 1 → 410 through Varnish", took(goneVarnish)]);

    // --- 3. A banner set on machine 2 shows on machine 1 and through Varnish within 2 s ---------
    console.log("machines: a banner set on machine 2, seen on machine 1 and through Varnish…");
    const text = `Machines check banner ${randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 2; i++) {
      await get(`${base("machine-1")}/`);
      await get(`${varnishUrl}/`);
    }
    const homeCached = `machine 1 ${String((await get(`${base("machine-1")}/`)).headers["x-cache"])}, Varnish ${varnishHit(await get(`${varnishUrl}/`)) ? "HIT" : "MISS"}`;
    const two = staffClient({ base: () => base("machine-2"), password: PASSWORD });
    const signedIn2 = await two.signedIn(EDITOR, "/newsroom/banner");
    const set = await two.post(
      "/newsroom/banner",
      {
        _csrf: signedIn2.csrf,
        intent: "set",
        text,
        link: "",
        expires: dateToSanDiegoLocal(new Date(Date.now() + 3 * 3_600_000)),
      },
      signedIn2.cookie,
    );
    const setAt = Date.now();
    if (set.status !== 303) throw new Error(`setting the banner answered ${set.status}`);
    const [bannerOn1, bannerVarnish] = await Promise.all([
      reached(
        () => get(`${base("machine-1")}/`),
        (a) => bannerOf(a.body).includes(text),
      ),
      reached(
        () => get(`${varnishUrl}/`),
        (a) => bannerOf(a.body).includes(text),
      ),
    ]);
    const tookBanner = (at: number | null) =>
      at === null ? `not within ${seconds(10_000)}` : seconds(at - setAt);
    verdicts.push({
      pass:
        bannerOn1 !== null &&
        bannerVarnish !== null &&
        bannerOn1 - setAt <= REACH_MS &&
        bannerVarnish - setAt <= REACH_MS,
      text: `a banner set in machine 2's newsroom shows on machine 1's home page after ${tookBanner(bannerOn1)} and through Varnish after ${tookBanner(bannerVarnish)} (at most ${seconds(REACH_MS)}; cached before: ${homeCached})`,
    });
    rows.push(["banner on machine 2 → machine 1", tookBanner(bannerOn1)]);
    rows.push(["banner on machine 2 → Varnish", tookBanner(bannerVarnish)]);

    // --- 4. Machine 1 killed while making copies: machine 2 answers them all, the bucket whole ---
    console.log("machines: machine 1 asked for many new copies at once, then killed (SIGKILL)…");
    const killList = hashes.flatMap((hash) =>
      KILL_FOCI.map(([x, y], i) =>
        i % 2 === 0
          ? `/images/${hash}/wide-f${x}x${y}-1200.avif`
          : `/images/${hash}/og-f${x}x${y}.jpg`,
      ),
    );
    const outcome = new Map<string, number>();
    const asked = killList.map((address) =>
      getBytes(`${base("machine-1")}${address}`, 60_000).then((r) => {
        outcome.set(address, r.status);
        return r;
      }),
    );
    // Killed once a few copies are done and the rest are still being made.
    const enough = Math.max(2, Math.floor(killList.length / 5));
    await waitUntil(
      "machine 1 to have made a few of the copies",
      async () => [...outcome.values()].filter((s) => s === 200).length >= enough,
      60_000,
    );
    const doneAtKill = [...outcome.values()].filter((s) => s === 200).length;
    killed.add(machine1);
    const killedAt = Date.now();
    await stopChild(machine1, "SIGKILL");
    await Promise.all(asked);
    const cutShortList = killList.filter((a) => outcome.get(a) !== 200);
    const cutShort = cutShortList.length;
    // Which of those machine 1 had stored before it died (made, but never answered).
    const storedAtKill = new Set(await listKeys());
    const storedCutShort = cutShortList.filter((a) =>
      storedAtKill.has(`variants/${a.slice("/images/".length)}`),
    ).length;
    const after = await pool(killList, 4, async (address) => {
      const r = await getBytes(`${base("machine-2")}${address}`);
      return { address, ok: r.status === 200 && (await decodes(r.bytes)) };
    });
    const servedBy2 = after.filter((r) => r.ok).length;
    const afterKillMs = Date.now() - killedAt;

    // Every object in the bucket, read back and decoded.
    const keys = await listKeys();
    const pictureKeys = keys.filter((key) => /^(originals|variants)\//.test(key));
    const broken: string[] = [];
    await pool(pictureKeys, 2, async (key) => {
      const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
      const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
      if (!(await decodes(bytes))) broken.push(key);
    });
    const variants = pictureKeys.filter((key) => key.startsWith("variants/")).length;
    verdicts.push({
      pass:
        cutShort > 0 &&
        servedBy2 === killList.length &&
        broken.length === 0 &&
        pictureKeys.length > 0,
      text: `machine 1 killed (SIGKILL, with its picture maker) while making ${killList.length} new copies asked at once: ${doneAtKill} answered, ${cutShort} cut short (${storedCutShort} of them already in the bucket); machine 2 then answered all ${killList.length} with a picture that decodes: ${servedBy2} (${seconds(afterKillMs)} after the kill); every object in the bucket decodes with sharp: ${pictureKeys.length - broken.length} of ${pictureKeys.length} (${variants} copies, ${pictureKeys.length - variants} originals)${broken.length > 0 ? `; broken: ${broken.slice(0, 5).join(", ")}` : ""}`,
    });
    rows.push([
      "copies cut short by the kill, then answered by machine 2",
      `${servedBy2} of ${killList.length} (${cutShort} cut short)`,
    ]);
    rows.push([
      "objects in the bucket that decode",
      `${pictureKeys.length - broken.length} of ${pictureKeys.length}`,
    ]);

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

/** The environment `news staff add` runs with: the shared database, nothing of the shell's site. */
function machineEnvFor(databaseUrl: string): NodeJS.ProcessEnv {
  return sampleSiteEnv(0, path.join(os.tmpdir(), "machines-cli-unused"), {
    DATABASE_URL: databaseUrl,
    PORT: "3000",
  });
}

/** Whether a process `pid` runs on this machine. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How many files there are under `dir` (0 when it does not exist). */
function filesUnder(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile()).length;
}

/** Whether Varnish answered from its cache (X-Varnish names two requests on a hit). */
const varnishHit = (answer: Answer) =>
  String(answer.headers["x-varnish"] ?? "")
    .trim()
    .split(/\s+/).length === 2;

/** Polls `ask` every 50 ms until `seen` holds: the time it first did, or null after 10 s. */
async function reached(
  ask: () => Promise<Answer>,
  seen: (answer: Answer) => boolean,
): Promise<number | null> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const answer = await ask().catch(() => null);
    if (answer && seen(answer)) return Date.now();
    await sleep(50);
  }
  return null;
}
