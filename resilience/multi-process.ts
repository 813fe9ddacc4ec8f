/**
 * Several processes on one PostgreSQL database: two web processes and a `news ingest --watch`
 * worker, with feeds from a local fixture server. Shows that ingest runs in one process at a time
 * (every feed request comes from the holder of the ingest advisory lock, and no two processes'
 * passes overlap), that both web processes serve an article right after any process's pass stores
 * it (the page cache is dropped through LISTEN/NOTIFY), and that a worker killed with SIGKILL in the
 * middle of a pass loses nothing: its lock goes with its session and the next worker completes it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { formatMarkdownTable } from "../server/test-support/report";
import { sampleSiteEnv } from "../scripts/sample-site.js";
import { advisoryLockHeld } from "../server/db/test-databases";
import { INGEST_LOCK_ID } from "../server/ingest/ingest";
import { verdictList, type CheckResult, type Verdict } from "./check";
import { createRunDatabase } from "./databases";
import {
  CATEGORIES,
  DELAY_MS,
  FIXTURE_PORT,
  item,
  passesOf,
  startFixture,
  type Fetch,
} from "./multi-process/fixture";
import {
  compete,
  killMidPass,
  newArticle,
  nextPass,
  PAGE,
  stopMidPass,
  WEB_INTERVAL_MINUTES,
  WEB_PORTS,
  type Run,
  type WebName,
} from "./multi-process/scenarios";
import {
  assertPortsFree,
  envNumber,
  get,
  isRunning,
  pollUntil,
  sleep,
  startNode,
  stopChild,
  tail,
  type Child,
} from "./processes";

/** The application name of the session holding the ingest lock. */
const HOLDERS_SQL = `
  SELECT a.application_name AS holder
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE ${advisoryLockHeld(INGEST_LOCK_ID)}`;

export async function multiProcessCheck(): Promise<CheckResult> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    throw new Error(
      "TEST_DATABASE_URL is not set: this check needs a PostgreSQL server to create its database on (e.g. postgres://postgres@127.0.0.1:5432/test).",
    );
  }
  const exclusionSeconds = envNumber("RESILIENCE_EXCLUSION_SECONDS", 25);
  await assertPortsFree([...Object.values(WEB_PORTS), FIXTURE_PORT]);

  const admin = new pg.Client({ connectionString: adminUrl, application_name: "resilience" });
  await admin.connect();
  const { name, url: databaseUrl } = await createRunDatabase(admin, adminUrl, "resilience");

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
  const waitUntil = (what: string, test: () => Promise<boolean>, timeoutMs: number) =>
    pollUntil(what, test, timeoutMs, {
      children,
      stoppedOnPurpose: (child) => exits.some((e) => e.startsWith(`${child.name}:`)),
      intervalMs: 100,
    });
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
    console.log(
      `multi-process: database ${name}; web-a, web-b (a pass every 3 s) and worker-1 start together (${exclusionSeconds} s)…`,
    );
    const run: Run = {
      db,
      feeds,
      fetches,
      delay,
      holders,
      startWeb,
      startWorker,
      stop,
      page,
      waitUntil,
      titlesStored,
      verdicts,
    };
    // The scenarios, in turn on the same database and feeds.
    const { webs, worker1 } = await compete(run, exclusionSeconds);
    await newArticle(run, webs);
    await stopMidPass(run, webs, worker1);
    await nextPass(run, await killMidPass(run));
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
