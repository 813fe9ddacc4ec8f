/** The multi-process check's feed server, noting who asked and who held the lock; its passes. */
import http from "node:http";
import { rssFeed } from "../../server/ingest/test-server";
import { sleep } from "../processes";

export const FIXTURE_PORT = 5162;
export const CATEGORIES = ["local-news", "business", "sports", "technology", "health", "food"];
/**
 * The fixture's time per answer: long enough that passes (3 rounds of 2 feeds) often meet, longer
 * while a worker is to be killed in the middle of one, short for the pass that finishes its work.
 */
export const DELAY_MS = { compete: 700, kill: 1500, finish: 300 };

export interface Item {
  guid: string;
  title: string;
  date: string;
  link: string;
}

/** One feed request the fixture server answered (or was answering when its client died). */
export interface Fetch {
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

export function item(prefix: string, n: number, title: string): Item {
  return {
    guid: `${prefix}-${n}`,
    title,
    date: new Date().toUTCString(),
    link: `https://sample.example.org/${prefix}-${n}`,
  };
}

/** The feeds, served slowly enough that a pass takes a while, noting who asked and who held the lock. */
export function startFixture(
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
export function passesOf(fetches: Fetch[]) {
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
