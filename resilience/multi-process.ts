/**
 * Several processes on one PostgreSQL database: two web processes and a `news ingest --watch`
 * worker, with feeds from a local fixture server. Shows that ingest runs in one process at a time
 * (every feed request comes from the holder of the ingest advisory lock, and no two processes'
 * passes overlap), that both web processes serve an article right after any process's pass stores
 * it (the page cache is dropped through LISTEN/NOTIFY), and that a worker killed with SIGKILL in the
 * middle of a pass loses nothing: its lock goes with its session and the next worker completes it.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { formatMarkdownTable } from "../server/test-support/report";
import { sampleSiteEnv } from "../scripts/sample-site.js";
import { advisoryLockHeld } from "../server/db/test-databases";
import { INGEST_LOCK_ID } from "../server/ingest/ingest";
import { rssFeed } from "../server/ingest/test-server";
import { verdictList, type CheckResult, type Verdict } from "./check";
import {
  assertPortsFree,
  envNumber,
  get,
  isRunning,
  sleep,
  startNode,
  stopChild,
  tail,
  waitForOk,
  type Child,
} from "./processes";

const WEB_PORTS = { "web-a": 5160, "web-b": 5161 } as const;
type WebName = keyof typeof WEB_PORTS;
const FIXTURE_PORT = 5162;
const CATEGORIES = ["local-news", "business", "sports", "technology", "health", "food"];
/** The page whose freshness is checked: the category of the first feed. */
const PAGE = "/local-news";
/** Web processes try a pass every 3 s (±10 %); the worker's shortest interval is a minute. */
const WEB_INTERVAL_MINUTES = "0.05";
/**
 * The fixture's time per answer: long enough that passes (3 rounds of 2 feeds) often meet, longer
 * while a worker is to be killed in the middle of one, short for the pass that finishes its work.
 */
const DELAY_MS = { compete: 700, kill: 1500, finish: 300 };

interface Item {
  guid: string;
  title: string;
  date: string;
  link: string;
}

/** One feed request the fixture server answered (or was answering when its client died). */
interface Fetch {
  process: string;
  path: string;
  started: number;
  ended: number;
  /** Whether the whole answer was sent. */
  complete: boolean;
  /** The application name of the session holding the ingest lock when the request came in. */
  holder: string | null;
  titles: string[];
}

/** The application name of the session holding the ingest lock. */
const HOLDERS_SQL = `
  SELECT a.application_name AS holder
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE ${advisoryLockHeld(INGEST_LOCK_ID)}`;

function item(prefix: string, n: number, title: string): Item {
  return {
    guid: `${prefix}-${n}`,
    title,
    date: new Date().toUTCString(),
    link: `https://sample.example.org/${prefix}-${n}`,
  };
}

/** The feeds, served slowly enough that a pass takes a while, noting who asked and who held the lock. */
function startFixture(
  feeds: Map<string, Item[]>,
  processOf: (userAgent: string) => string,
  holders: () => Promise<string[]>,
  delay: { ms: number },
  fetches: Fetch[],
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const category = /^\/feeds\/([a-z-]+)\.xml$/.exec(req.url ?? "")?.[1] ?? "";
    const items = feeds.get(category);
    if (!items) {
      res.writeHead(404).end();
      return;
    }
    const xml = rssFeed(`Resilience ${category}`, items);
    const fetch: Fetch = {
      process: processOf(req.headers["user-agent"] ?? ""),
      path: req.url ?? "",
      started: Date.now(),
      ended: NaN,
      complete: false,
      holder: null,
      titles: items.map((i) => i.title),
    };
    fetches.push(fetch);
    res.on("finish", () => (fetch.complete = true));
    res.on("close", () => (fetch.ended = Date.now()));
    void (async () => {
      // The requester waits for this answer, so a lock it holds now it holds until the answer.
      const now = await holders().catch(() => ["(query failed)"]);
      fetch.holder = now.length === 1 ? (now[0] ?? null) : now.length === 0 ? null : now.join("+");
      await sleep(delay.ms);
      res.writeHead(200, { "Content-Type": "application/rss+xml" }).end(xml);
    })().catch(() => res.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(FIXTURE_PORT, "127.0.0.1", () => resolve(server));
  });
}

/** A process's feed requests in arrival order, cut into passes: a pass asks for each feed once. */
function passesOf(fetches: Fetch[]) {
  const passes: { process: string; start: number; end: number; fetches: number }[] = [];
  const current = new Map<string, { paths: Set<string>; index: number }>();
  for (const fetch of [...fetches].sort((a, b) => a.started - b.started)) {
    // A request still under way counts as going on for ever.
    const end = Number.isNaN(fetch.ended) ? Infinity : fetch.ended;
    let open = current.get(fetch.process);
    if (!open || open.paths.has(fetch.path)) {
      passes.push({ process: fetch.process, start: fetch.started, end, fetches: 0 });
      open = { paths: new Set(), index: passes.length - 1 };
      current.set(fetch.process, open);
    }
    open.paths.add(fetch.path);
    const pass = passes[open.index];
    if (pass) {
      pass.fetches++;
      pass.end = Math.max(pass.end, end);
    }
  }
  return passes;
}

export async function multiProcessCheck(): Promise<CheckResult> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    throw new Error(
      "TEST_DATABASE_URL is not set: this check needs a PostgreSQL server to create its database on (e.g. postgres://postgres@127.0.0.1:5432/test).",
    );
  }
  const exclusionSeconds = envNumber("RESILIENCE_EXCLUSION_SECONDS", 25);
  await assertPortsFree([...Object.values(WEB_PORTS), FIXTURE_PORT]);

  const name = `resilience_${process.pid}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl, application_name: "resilience" });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 4, application_name: "resilience" });
  // An idle client whose session ends emits 'error'; the next query opens another.
  db.on("error", () => undefined);
  admin.on("error", () => undefined);
  const holders = async () =>
    (await db.query<{ holder: string }>(HOLDERS_SQL)).rows.map((row) => row.holder);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "resilience-multi-"));
  const feedsFile = path.join(work, "feeds.json");
  fs.writeFileSync(
    feedsFile,
    JSON.stringify(
      Object.fromEntries(
        CATEGORIES.map((c) => [c, [`http://127.0.0.1:${FIXTURE_PORT}/feeds/${c}.xml`]]),
      ),
    ),
  );
  const feeds = new Map(
    CATEGORIES.map((c) => [
      c,
      [1, 2, 3, 4, 5].map((n) => item(`base-${c}`, n, `Base story ${n} of ${c}`)),
    ]),
  );
  // Each process reads feeds with its own SITE_URL in the User-Agent and its own application name.
  const siteUrls = new Map<string, string>();
  const processOf = (userAgent: string) => {
    const site = /\(\+([^)]+)\)/.exec(userAgent)?.[1] ?? "";
    return siteUrls.get(site) ?? `unknown (${userAgent})`;
  };
  const delay = { ms: DELAY_MS.compete };
  const fetches: Fetch[] = [];
  const dropDatabase = async () => {
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(work, { recursive: true, force: true });
  };
  const fixture = await startFixture(feeds, processOf, holders, delay, fetches).catch(
    async (error: unknown) => {
      await dropDatabase();
      throw error;
    },
  );

  const children: Child[] = [];
  const exits: string[] = [];
  const env = (who: string, siteUrl: string, port: number, extra: Record<string, string>) => {
    siteUrls.set(siteUrl, who);
    return sampleSiteEnv(port, path.join(work, "unused-data-dir"), {
      DATABASE_URL: databaseUrl,
      FEEDS_FILE: feedsFile,
      SITE_URL: siteUrl,
      PGAPPNAME: who,
      LOG_LEVEL: "info",
      PAGE_CACHE_SECONDS: "3600",
      ...extra,
    });
  };
  const startWeb = (web: WebName, generation: number, interval: string) => {
    const who = generation === 1 ? web : `${web}-${generation}`;
    const child = startNode(
      who,
      "server/main.ts",
      [],
      env(who, `http://127.0.0.1:${WEB_PORTS[web]}`, WEB_PORTS[web], {
        INGEST_INTERVAL_MINUTES: interval,
      }),
    );
    children.push(child);
    return child;
  };
  const startWorker = (n: number) => {
    const who = `worker-${n}`;
    const child = startNode(
      who,
      "cli/news.ts",
      ["ingest", "--watch"],
      env(who, `http://${who}.invalid`, 5163, { INGEST_INTERVAL_MINUTES: WEB_INTERVAL_MINUTES }),
    );
    children.push(child);
    return child;
  };
  const stop = async (child: Child, signal: NodeJS.Signals = "SIGTERM") => {
    const { code, signal: by } = await stopChild(child, signal);
    exits.push(`${child.name}: ${code !== null ? `exit code ${code}` : `killed by ${by}`}`);
    return code;
  };
  const page = async (web: WebName) => get(`http://127.0.0.1:${WEB_PORTS[web]}${PAGE}`);
  const waitUntil = async (what: string, test: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await test()) return Date.now();
      for (const child of children) {
        if (!isRunning(child) && !exits.some((e) => e.startsWith(`${child.name}:`))) {
          throw new Error(
            [`${child.name} stopped while waiting for ${what}:`, ...tail(child)].join("\n"),
          );
        }
      }
      await sleep(100);
    }
    throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
  };
  const titlesStored = async (pattern: string) =>
    Number(
      (
        await db.query<{ n: string }>("SELECT count(*) AS n FROM articles WHERE title LIKE $1", [
          pattern,
        ])
      ).rows[0]?.n ?? 0,
    );

  // Which process held the lock, sampled all along: never two at once.
  let sampling = true;
  let maxHolders = 0;
  const heldBy = new Set<string>();
  const sampler = (async () => {
    while (sampling) {
      const now = await holders().catch(() => []);
      maxHolders = Math.max(maxHolders, now.length);
      now.forEach((h) => heldBy.add(h));
      await sleep(50);
    }
  })();

  const verdicts: Verdict[] = [];
  const notes: string[] = [];
  try {
    // --- 1. Exclusion: all three start at once and keep trying ------------------------------------
    console.log(
      `multi-process: database ${name}; web-a, web-b (a pass every 3 s) and worker-1 start together (${exclusionSeconds} s)…`,
    );
    const webs = {
      "web-a": startWeb("web-a", 1, WEB_INTERVAL_MINUTES),
      "web-b": startWeb("web-b", 1, WEB_INTERVAL_MINUTES),
    };
    const worker1 = startWorker(1);
    await Promise.all(
      (Object.keys(webs) as WebName[]).map((web) =>
        waitForOk(`http://127.0.0.1:${WEB_PORTS[web]}/healthz`, webs[web]),
      ),
    );
    await sleep(exclusionSeconds * 1000);
    const skipped = (child: Child) =>
      child.lines.filter((line) =>
        /ingest pass skipped|Another ingest pass is running on this database/.test(line),
      ).length;
    const skips = [webs["web-a"], webs["web-b"], worker1].map((c) => ({
      name: c.name,
      skipped: skipped(c),
    }));
    const exclusionPasses = passesOf(fetches);
    const passCounts = new Map<string, number>();
    for (const pass of exclusionPasses)
      passCounts.set(pass.process, (passCounts.get(pass.process) ?? 0) + 1);
    const totalSkips = skips.reduce((n, s) => n + s.skipped, 0);
    verdicts.push({
      pass: passCounts.size >= 2 && totalSkips >= 1,
      text: `the processes competed: in ${exclusionSeconds} s passes by ${[...passCounts].map(([p, n]) => `${p} ${n}`).join(", ")}; passes skipped because another process held the lock: ${skips.map((s) => `${s.name} ${s.skipped}`).join(", ")}`,
    });

    // --- 2. A new article reaches both web processes' pages -------------------------------------
    console.log("multi-process: a new article in a feed, then both web processes' pages…");
    const cachedBefore: string[] = [];
    for (const web of Object.keys(webs) as WebName[]) {
      await page(web);
      cachedBefore.push(`${web} ${String((await page(web)).headers["x-cache"])}`);
    }
    const headline = `Resilience headline ${randomBytes(4).toString("hex")}`;
    const changedAt = Date.now();
    feeds.get("local-news")?.unshift(item("fresh", 1, headline));
    const storedAt = await waitUntil(
      "the new article to be stored",
      async () => (await titlesStored(headline)) === 1,
      30_000,
    );
    const storedBy =
      fetches.find((f) => f.started >= changedAt && f.titles.includes(headline) && f.complete)
        ?.process ?? "unknown";
    const seenAfter: string[] = [];
    let bothServe = true;
    for (const web of Object.keys(webs) as WebName[]) {
      try {
        const at = await waitUntil(
          `${web} to show the new headline`,
          async () => (await page(web)).body.includes(headline),
          15_000,
        );
        seenAfter.push(`${web} ${((at - storedAt) / 1000).toFixed(1)} s`);
      } catch {
        bothServe = false;
        seenAfter.push(`${web} never (15 s)`);
      }
    }
    verdicts.push({
      pass: bothServe && cachedBefore.every((entry) => entry.endsWith(" HIT")),
      text: `a new article stored by ${storedBy}'s pass (${((storedAt - changedAt) / 1000).toFixed(1)} s after the feed changed) is on ${PAGE} of both web processes, whose cached copies (${cachedBefore.join(", ")}) were kept for up to an hour otherwise: ${seenAfter.join(", ")} after it was stored`,
    });

    // --- 3. A worker killed in the middle of a pass --------------------------------------------
    console.log(
      "multi-process: web processes restarted without a schedule; a worker killed mid-pass…",
    );
    // The web process in the middle of a pass is stopped first: the feeds it was reading must stay
    // due for the next pass, not back off as failures.
    let ingesting: WebName | undefined;
    await waitUntil(
      "a web process to be in the middle of a pass",
      async () => {
        const [holder] = await holders();
        ingesting = (Object.keys(webs) as WebName[]).find(
          (web) =>
            web === holder && fetches.some((f) => f.process === web && Number.isNaN(f.ended)),
        );
        return ingesting !== undefined;
      },
      30_000,
    );
    const first = ingesting ?? "web-a";
    const cut = fetches.filter((f) => f.process === first && Number.isNaN(f.ended)).length;
    const stopCodes = [
      await stop(webs[first]),
      await stop(webs[first === "web-a" ? "web-b" : "web-a"]),
      await stop(worker1),
    ];
    const failedFeeds = Number(
      (
        await db.query<{ n: string }>(
          "SELECT count(*) AS n FROM feeds WHERE consecutive_failures > 0 OR next_attempt_at > now()",
        )
      ).rows[0]?.n,
    );
    verdicts.push({
      pass: stopCodes.every((code) => code === 0) && failedFeeds === 0,
      text: `${first}, stopped with SIGTERM in the middle of a pass (${cut} feed requests under way), then the other web process and worker-1 stopped cleanly (exit codes ${stopCodes.join(", ")}); feeds left failed or not due: ${failedFeeds}`,
    });
    // From here on only workers ingest, so the one killed is the one in the middle of the pass.
    const servers = { "web-a": startWeb("web-a", 2, "0"), "web-b": startWeb("web-b", 2, "0") };
    await Promise.all(
      (Object.keys(servers) as WebName[]).map((web) =>
        waitForOk(`http://127.0.0.1:${WEB_PORTS[web]}/healthz`, servers[web]),
      ),
    );
    for (const web of Object.keys(servers) as WebName[]) await page(web);
    const before = new Set(
      (await db.query<{ id: string }>("SELECT id FROM articles")).rows.map((r) => r.id),
    );
    const tag = randomBytes(3).toString("hex");
    const expected: string[] = [];
    for (const category of CATEGORIES) {
      for (const n of [1, 2, 3]) {
        const title = `Kill check ${tag} ${category} ${n}`;
        feeds.get(category)?.unshift(item(`kill-${tag}-${category}`, n, title));
        expected.push(title);
      }
    }
    delay.ms = DELAY_MS.kill;
    const worker2 = startWorker(2);
    let storedAtKill = 0;
    await waitUntil(
      "worker-2 to be in the middle of its pass",
      async () => {
        storedAtKill = await titlesStored(`Kill check ${tag} %`);
        const inFlight = fetches.filter(
          (f) => f.process === "worker-2" && Number.isNaN(f.ended),
        ).length;
        return storedAtKill >= 1 && storedAtKill < expected.length && inFlight > 0;
      },
      60_000,
    );
    const holderAtKill = (await holders()).join("+") || "nobody";
    const inFlightAtKill = fetches.filter(
      (f) => f.process === "worker-2" && Number.isNaN(f.ended),
    ).length;
    const killedAt = Date.now();
    await stop(worker2, "SIGKILL");
    const releasedAt = await waitUntil(
      "the ingest lock to be released",
      async () => (await holders()).length === 0,
      10_000,
    );
    // PostgreSQL ends each of the killed process's sessions (a backend process each) when it sees
    // that session's socket closed: the one holding the lock may end a few milliseconds before
    // the others (seen once: 1 session left when the lock was free 8 ms after the kill).
    let sessionsLeft = NaN;
    let sessionsGoneAt = NaN;
    const sessionsDeadline = Date.now() + 10_000;
    for (;;) {
      sessionsLeft = Number(
        (
          await db.query<{ n: string }>(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'worker-2'",
          )
        ).rows[0]?.n,
      );
      if (sessionsLeft === 0) sessionsGoneAt = Date.now();
      if (sessionsLeft === 0 || Date.now() >= sessionsDeadline) break;
      await sleep(20);
    }
    const afterKill = new Set(
      (await db.query<{ id: string }>("SELECT id FROM articles")).rows.map((r) => r.id),
    );
    const lostAtKill = [...before].filter((id) => !afterKill.has(id)).length;
    const storedAfterKill = await titlesStored(`Kill check ${tag} %`);
    verdicts.push({
      pass:
        holderAtKill === "worker-2" &&
        releasedAt - killedAt < 10_000 &&
        sessionsLeft === 0 &&
        lostAtKill === 0 &&
        storedAfterKill >= storedAtKill,
      text: `worker-2 was killed (SIGKILL) holding the lock (holder: ${holderAtKill}), with ${storedAtKill} of ${expected.length} new articles stored and ${inFlightAtKill} feed request(s) under way when the signal was sent; the lock was free ${releasedAt - killedAt} ms later and ${sessionsLeft === 0 ? `its last session ended ${sessionsGoneAt - killedAt} ms after the kill` : `${sessionsLeft} of its sessions were still open 10 s after the kill`}; ${lostAtKill} of the ${before.size} articles stored before were lost, and the ${storedAfterKill} new ones it had stored by then are kept`,
    });

    delay.ms = DELAY_MS.finish;
    const worker3 = startWorker(3);
    await waitUntil(
      "worker-3 to finish its first pass",
      async () =>
        worker3.lines.some((line) => /^Blog: /.test(line)) &&
        worker3.lines.some((l) => /new articles/.test(l)),
      60_000,
    );
    const worker3Skipped = skipped(worker3);
    const rows = await db.query<{ id: string; title: string }>("SELECT id, title FROM articles");
    const ids = new Set(rows.rows.map((r) => r.id));
    const lost = [...before].filter((id) => !ids.has(id)).length;
    const killTitles = rows.rows
      .filter((r) => r.title.startsWith(`Kill check ${tag} `))
      .map((r) => r.title);
    const missing = expected.filter((title) => !killTitles.includes(title));
    const duplicates = killTitles.length - new Set(killTitles).size;
    const worker3Fetched = new Set(
      fetches.filter((f) => f.process === "worker-3" && f.complete).map((f) => f.path),
    ).size;
    verdicts.push({
      pass:
        worker3Skipped === 0 &&
        lost === 0 &&
        missing.length === 0 &&
        duplicates === 0 &&
        rows.rows.length === before.size + expected.length,
      text: `worker-3 ran the next pass (${worker3Skipped === 0 ? "not skipped" : "SKIPPED"}; ${worker3Fetched} of ${CATEGORIES.length} feeds read): ${expected.length - missing.length} of ${expected.length} new articles stored, ${duplicates} twice, ${lost} earlier ones lost; ${rows.rows.length} articles in all, for ${before.size} before + ${expected.length} new`,
    });
    const newest = expected.filter((title) => title.includes(" local-news "));
    const shown: string[] = [];
    let shownBoth = true;
    for (const web of Object.keys(servers) as WebName[]) {
      try {
        await waitUntil(
          `${web} to show worker-3's articles`,
          async () => {
            const body = (await page(web)).body;
            return newest.every((title) => body.includes(title));
          },
          15_000,
        );
        shown.push(`${web}-2 yes`);
      } catch {
        shownBoth = false;
        shown.push(`${web}-2 no`);
      }
    }
    verdicts.push({
      pass: shownBoth,
      text: `both restarted web processes show worker-3's ${PAGE} articles over their cached copies: ${shown.join(", ")}`,
    });
    const finalCodes = [
      await stop(worker3),
      await stop(servers["web-a"]),
      await stop(servers["web-b"]),
    ];
    verdicts.push({
      pass: finalCodes.every((code) => code === 0),
      text: `worker-3 and both web processes stopped cleanly on SIGTERM (exit codes ${finalCodes.join(", ")})`,
    });
  } finally {
    sampling = false;
    await sampler;
    for (const child of children) if (isRunning(child)) await stop(child, "SIGKILL");
    fixture.closeAllConnections();
    await new Promise((resolve) => fixture.close(resolve));
    await dropDatabase();
    if (verdicts.some((v) => !v.pass)) {
      console.error(children.flatMap((child) => tail(child, 20)).join("\n"));
    }
  }

  // --- Over the whole run: every feed request came from the lock's holder; no passes overlapped --
  const wrongHolder = fetches.filter((f) => f.holder !== f.process);
  const passes = passesOf(fetches);
  let overlaps = 0;
  for (const [i, a] of passes.entries()) {
    for (const b of passes.slice(i + 1)) {
      if (a.process !== b.process && a.start < b.end && b.start < a.end) overlaps++;
    }
  }
  verdicts.unshift(
    {
      pass: fetches.length > 0 && wrongHolder.length === 0,
      text: `each of the ${fetches.length} feed requests came from the process holding the ingest lock at that moment (${wrongHolder.length} did not${
        wrongHolder.length > 0
          ? `: ${wrongHolder
              .slice(0, 3)
              .map((f) => `${f.process} while ${f.holder ?? "nobody"} held it`)
              .join("; ")}`
          : ""
      })`,
    },
    {
      pass: overlaps === 0 && maxHolders <= 1,
      text: `no two processes' passes overlapped (${passes.length} passes; ${overlaps} overlapping pairs); the lock, sampled every 50 ms, had at most ${maxHolders} holder at a time and was held by ${[...heldBy].sort().join(", ")}`,
    },
  );
  notes.push(`Processes ended: ${exits.join("; ")}.`);

  const byProcess = new Map<string, { passes: number; fetches: number }>();
  for (const pass of passes) {
    const entry = byProcess.get(pass.process) ?? { passes: 0, fetches: 0 };
    entry.passes++;
    entry.fetches += pass.fetches;
    byProcess.set(pass.process, entry);
  }
  const table = formatMarkdownTable(
    ["process", "passes (from the fixture's requests)", "feed requests"],
    [...byProcess].map(([process, v]) => [process, v.passes, v.fetches]),
  );
  const body = `${table}

${verdictList(verdicts)}

${notes.join("\n\n")}

How: a fresh PostgreSQL database; a local HTTP server serves ${CATEGORIES.length} RSS feeds (${DELAY_MS.compete} ms per answer while the processes compete, ${DELAY_MS.kill} ms while a worker is to be killed, ${DELAY_MS.finish} ms for the pass after; at most 2 at a time from one host, so a pass takes a few seconds). Each process has its own \`SITE_URL\` (so its own User-Agent when reading feeds) and its own PostgreSQL \`application_name\` (\`PGAPPNAME\`). For every feed request the fixture server asks \`pg_locks\` which session holds the ingest advisory lock (${INGEST_LOCK_ID}) before answering: the requester waits for that answer, so it must be the holder throughout. Passes are cut from each process's requests (a pass asks for each feed once) and their spans compared. Web processes run the production build with \`INGEST_INTERVAL_MINUTES=${WEB_INTERVAL_MINUTES}\` and \`PAGE_CACHE_SECONDS=3600\`, so only the change notification can refresh a cached page; \`news ingest --watch\` passes at its start and then every minute. For the kill, the web processes are restarted without a schedule so the worker is the only one ingesting.`;
  const killVerdict = verdicts.find((v) => v.text.startsWith("worker-2"));
  return {
    id: "multi-process",
    title: "Several processes on one PostgreSQL database",
    verdicts,
    summary: `${passes.length} passes in ${byProcess.size} processes, ${overlaps} overlapping, ${wrongHolder.length} requests without the lock; new article on both web processes: ${verdicts.find((v) => v.text.startsWith("a new article"))?.pass ? "yes" : "no"}; kill mid-pass: ${killVerdict?.pass ? "nothing lost" : "FAILED"}`,
    body,
  };
}
