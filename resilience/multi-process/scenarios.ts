/** The multi-process check's scenarios: lock contention, fresh pages, a stop, a kill mid-pass. */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import type { Verdict } from "../check";
import { sleep, waitForOk, type Answer, type Child } from "../processes";
import { CATEGORIES, DELAY_MS, item, passesOf, type Fetch, type Item } from "./fixture";

export const WEB_PORTS = { "web-a": 5160, "web-b": 5161 } as const;
export type WebName = keyof typeof WEB_PORTS;
/** The page whose freshness is checked: the category of the first feed. */
export const PAGE = "/local-news";
/** Web processes try a pass every 3 s (±10 %); the worker's shortest interval is a minute. */
export const WEB_INTERVAL_MINUTES = "0.05";

/** The check's database, feeds and processes, as the scenarios act on them. */
export interface Run {
  db: pg.Pool;
  /** The fixture's feeds by category: an item put in front is in the next answer. */
  feeds: Map<string, Item[]>;
  /** Every feed request the fixture saw. */
  fetches: Fetch[];
  /** The fixture's time per answer. */
  delay: { ms: number };
  /** The application names of the sessions holding the ingest lock. */
  holders: () => Promise<string[]>;
  startWeb: (web: WebName, generation: number, interval: string) => Child;
  startWorker: (n: number) => Child;
  /** Stops a process and notes how it ended: its exit code. */
  stop: (child: Child, signal?: NodeJS.Signals) => Promise<number | null>;
  /** PAGE from a web process. */
  page: (web: WebName) => Promise<Answer>;
  /** Polls `test` until it holds, failing early when a process stops unasked. */
  waitUntil: (what: string, test: () => Promise<boolean>, timeoutMs: number) => Promise<number>;
  /** How many stored articles' titles are LIKE `pattern`. */
  titlesStored: (pattern: string) => Promise<number>;
  verdicts: Verdict[];
}

type Webs = Record<WebName, Child>;

/** Passes a process skipped because another held the lock, by its log. */
const skipped = (child: Child) =>
  child.lines.filter((line) =>
    /ingest pass skipped|Another ingest pass is running on this database/.test(line),
  ).length;

const webNames = (webs: Webs) => Object.keys(webs) as WebName[];

const healthy = (webs: Webs) =>
  Promise.all(
    webNames(webs).map((web) => waitForOk(`http://127.0.0.1:${WEB_PORTS[web]}/healthz`, webs[web])),
  );

/** 1. Exclusion: two web processes and a worker start at once and keep trying. */
export async function compete(run: Run, exclusionSeconds: number) {
  const webs: Webs = {
    "web-a": run.startWeb("web-a", 1, WEB_INTERVAL_MINUTES),
    "web-b": run.startWeb("web-b", 1, WEB_INTERVAL_MINUTES),
  };
  const worker1 = run.startWorker(1);
  await healthy(webs);
  await sleep(exclusionSeconds * 1000);
  const skips = [webs["web-a"], webs["web-b"], worker1].map((c) => ({
    name: c.name,
    skipped: skipped(c),
  }));
  const exclusionPasses = passesOf(run.fetches);
  const passCounts = new Map<string, number>();
  for (const pass of exclusionPasses)
    passCounts.set(pass.process, (passCounts.get(pass.process) ?? 0) + 1);
  const totalSkips = skips.reduce((n, s) => n + s.skipped, 0);
  run.verdicts.push({
    pass: passCounts.size >= 2 && totalSkips >= 1,
    text: `the processes competed: in ${exclusionSeconds} s passes by ${[...passCounts].map(([p, n]) => `${p} ${n}`).join(", ")}; passes skipped because another process held the lock: ${skips.map((s) => `${s.name} ${s.skipped}`).join(", ")}`,
  });
  return { webs, worker1 };
}

/** 2. A new article reaches both web processes' pages. */
export async function newArticle(run: Run, webs: Webs) {
  const { page, waitUntil } = run;
  console.log("multi-process: a new article in a feed, then both web processes' pages…");
  const cachedBefore: string[] = [];
  for (const web of webNames(webs)) {
    await page(web);
    cachedBefore.push(`${web} ${String((await page(web)).headers["x-cache"])}`);
  }
  const headline = `Resilience headline ${randomBytes(4).toString("hex")}`;
  const changedAt = Date.now();
  run.feeds.get("local-news")?.unshift(item("fresh", 1, headline));
  const storedAt = await waitUntil(
    "the new article to be stored",
    async () => (await run.titlesStored(headline)) === 1,
    30_000,
  );
  const storedBy =
    run.fetches.find((f) => f.started >= changedAt && f.titles.includes(headline) && f.complete)
      ?.process ?? "unknown";
  const seenAfter: string[] = [];
  let bothServe = true;
  for (const web of webNames(webs)) {
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
  run.verdicts.push({
    pass: bothServe && cachedBefore.every((entry) => entry.endsWith(" HIT")),
    text: `a new article stored by ${storedBy}'s pass (${((storedAt - changedAt) / 1000).toFixed(1)} s after the feed changed) is on ${PAGE} of both web processes, whose cached copies (${cachedBefore.join(", ")}) were kept for up to an hour otherwise: ${seenAfter.join(", ")} after it was stored`,
  });
}

/**
 * 3. The web process in the middle of a pass is stopped first, then the others: the feeds it was
 * reading must stay due for the next pass, not back off as failures.
 */
export async function stopMidPass(run: Run, webs: Webs, worker1: Child) {
  const { fetches, stop } = run;
  console.log(
    "multi-process: web processes restarted without a schedule; a worker killed mid-pass…",
  );
  let ingesting: WebName | undefined;
  await run.waitUntil(
    "a web process to be in the middle of a pass",
    async () => {
      const [holder] = await run.holders();
      ingesting = webNames(webs).find(
        (web) => web === holder && fetches.some((f) => f.process === web && Number.isNaN(f.ended)),
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
      await run.db.query<{ n: string }>(
        "SELECT count(*) AS n FROM feeds WHERE consecutive_failures > 0 OR next_attempt_at > now()",
      )
    ).rows[0]?.n,
  );
  run.verdicts.push({
    pass: stopCodes.every((code) => code === 0) && failedFeeds === 0,
    text: `${first}, stopped with SIGTERM in the middle of a pass (${cut} feed requests under way), then the other web process and worker-1 stopped cleanly (exit codes ${stopCodes.join(", ")}); feeds left failed or not due: ${failedFeeds}`,
  });
}

/**
 * 4. Web processes restarted without a schedule, so only workers ingest; worker-2 is killed with
 * SIGKILL in the middle of its pass.
 */
export async function killMidPass(run: Run) {
  const { db, fetches, holders, titlesStored, waitUntil } = run;
  // From here on only workers ingest, so the one killed is the one in the middle of the pass.
  const servers: Webs = {
    "web-a": run.startWeb("web-a", 2, "0"),
    "web-b": run.startWeb("web-b", 2, "0"),
  };
  await healthy(servers);
  for (const web of webNames(servers)) await run.page(web);
  const before = new Set(
    (await db.query<{ id: string }>("SELECT id FROM articles")).rows.map((r) => r.id),
  );
  const tag = randomBytes(3).toString("hex");
  const expected: string[] = [];
  for (const category of CATEGORIES) {
    for (const n of [1, 2, 3]) {
      const title = `Kill check ${tag} ${category} ${n}`;
      run.feeds.get(category)?.unshift(item(`kill-${tag}-${category}`, n, title));
      expected.push(title);
    }
  }
  run.delay.ms = DELAY_MS.kill;
  const worker2 = run.startWorker(2);
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
  await run.stop(worker2, "SIGKILL");
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
  run.verdicts.push({
    pass:
      holderAtKill === "worker-2" &&
      releasedAt - killedAt < 10_000 &&
      sessionsLeft === 0 &&
      lostAtKill === 0 &&
      storedAfterKill >= storedAtKill,
    text: `worker-2 was killed (SIGKILL) holding the lock (holder: ${holderAtKill}), with ${storedAtKill} of ${expected.length} new articles stored and ${inFlightAtKill} feed request(s) under way when the signal was sent; the lock was free ${releasedAt - killedAt} ms later and ${sessionsLeft === 0 ? `its last session ended ${sessionsGoneAt - killedAt} ms after the kill` : `${sessionsLeft} of its sessions were still open 10 s after the kill`}; ${lostAtKill} of the ${before.size} articles stored before were lost, and the ${storedAfterKill} new ones it had stored by then are kept`,
  });
  return { servers, before, expected, tag };
}

/**
 * 5. worker-3 runs the next pass and completes the killed one's work; both web processes show it,
 * and everything stops cleanly.
 */
export async function nextPass(run: Run, killed: Awaited<ReturnType<typeof killMidPass>>) {
  const { servers, before, expected, tag } = killed;
  const { stop, waitUntil } = run;
  run.delay.ms = DELAY_MS.finish;
  const worker3 = run.startWorker(3);
  await waitUntil(
    "worker-3 to finish its first pass",
    async () =>
      worker3.lines.some((line) => /^Blog: /.test(line)) &&
      worker3.lines.some((l) => /new articles/.test(l)),
    60_000,
  );
  const worker3Skipped = skipped(worker3);
  const rows = await run.db.query<{ id: string; title: string }>("SELECT id, title FROM articles");
  const ids = new Set(rows.rows.map((r) => r.id));
  const lost = [...before].filter((id) => !ids.has(id)).length;
  const killTitles = rows.rows
    .filter((r) => r.title.startsWith(`Kill check ${tag} `))
    .map((r) => r.title);
  const missing = expected.filter((title) => !killTitles.includes(title));
  const duplicates = killTitles.length - new Set(killTitles).size;
  const worker3Fetched = new Set(
    run.fetches.filter((f) => f.process === "worker-3" && f.complete).map((f) => f.path),
  ).size;
  run.verdicts.push({
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
  for (const web of webNames(servers)) {
    try {
      await waitUntil(
        `${web} to show worker-3's articles`,
        async () => {
          const body = (await run.page(web)).body;
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
  run.verdicts.push({
    pass: shownBoth,
    text: `both restarted web processes show worker-3's ${PAGE} articles over their cached copies: ${shown.join(", ")}`,
  });
  const finalCodes = [
    await stop(worker3),
    await stop(servers["web-a"]),
    await stop(servers["web-b"]),
  ];
  run.verdicts.push({
    pass: finalCodes.every((code) => code === 0),
    text: `worker-3 and both web processes stopped cleanly on SIGTERM (exit codes ${finalCodes.join(", ")})`,
  });
}
