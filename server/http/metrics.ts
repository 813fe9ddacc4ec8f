import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PurgeOutcome } from "../cache/purge";
import type { IngestSummary } from "../ingest/ingest";
import type { ReadCache } from "../news/read-cache";
import type { PageEvent } from "./page-handler";

/** Known page shapes, so the route label stays a short list whatever addresses are asked for. */
const ROUTE_PATTERNS: [RegExp, string][] = [
  [/^\/article\/[^/]+$/, "/article/:id"],
  [/^\/blog\/[^/]+$/, "/blog/:slug"],
  [/^\/sitemaps\/[^/]+$/, "/sitemaps/:file"],
  [/^\/assets\//, "/assets/*"],
  // Feed pictures' copies (server/images/route.ts) apart from the site's own files under /images.
  [/^\/images\/[0-9a-f]{64}\/[^/]+$/, "/images/:hash/:file"],
  [/^\/images\//, "/images/*"],
  [/^\/icons\//, "/icons/*"],
  [/^\/[a-z-]*(\/rss\.xml)?$/, ""],
];

/** The label for a request path: its route's pattern, the path itself for fixed pages. */
export function routeLabel(path: string): string {
  const bare = path.replace(/\.data$/, "");
  for (const [pattern, label] of ROUTE_PATTERNS) {
    if (pattern.test(bare)) return label || (bare.length <= 40 ? bare : "other");
  }
  return "other";
}

/** The process's Prometheus metrics: HTTP, the page and read caches, ingest, and what is stored. */
export function createMetrics(
  countArticles: () => Promise<number>,
  readCache: Pick<ReadCache, "takeOutcomes"> | null = null,
) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Pages answered from the cache are the hot path (tens of thousands a second): they are counted
  // in plain numbers here, by route and status, and handed to prom-client when /metrics is read.
  const pendingHits = new Map<string, { route: string; status: string; count: number }>();
  const flushHits = () => {
    let total = 0;
    for (const { route, status, count } of pendingHits.values()) {
      httpRequests.inc({ method: "GET", route, status }, count);
      total += count;
    }
    pendingHits.clear();
    if (total > 0) pageCache.inc({ outcome: "hit" }, total);
  };
  /** A plain counter of this registry. */
  const counter = <L extends string>(name: string, help: string, labelNames: L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  const httpRequests: Counter<"method" | "route" | "status"> = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by route and status, pages answered from the cache included",
    labelNames: ["method", "route", "status"],
    registers: [registry],
    collect: flushHits,
  });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request that the page cache did not answer, by route",
    labelNames: ["route"],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const pageCache: Counter<"outcome"> = new Counter({
    name: "page_cache_requests_total",
    help: "Page requests by cache outcome (hit, stale: sent while rendered again, miss, bypass)",
    labelNames: ["outcome"],
    registers: [registry],
    collect: flushHits,
  });
  new Counter({
    name: "read_cache_requests_total",
    help: "Article reads by read cache outcome (hit, miss); none when the read cache is off",
    labelNames: ["outcome"],
    registers: [registry],
    collect() {
      if (!readCache) return;
      const { hit, miss } = readCache.takeOutcomes();
      this.inc({ outcome: "hit" }, hit);
      this.inc({ outcome: "miss" }, miss);
    },
  });
  const renders = counter("page_renders_total", "Pages rendered by React Router");
  const ingestPasses = counter(
    "ingest_passes_total",
    "Ingest passes run by the web process (all of them behind a supervisor)",
  );
  const feedFetches = counter(
    "feed_fetches_total",
    "Feed reads by outcome (stored, no-items, not-modified, fetch-failed, not-a-feed, store-failed)",
    ["outcome"],
  );
  const feedDuration = new Histogram({
    name: "feed_fetch_duration_seconds",
    help: "Time to fetch, parse and store one feed",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  const articlesStored = counter(
    "ingest_articles_stored_total",
    "Articles stored by the web process's ingest passes, new or updated",
    ["kind"],
  );
  const purges = counter(
    "cache_purge_requests_total",
    "Purge requests to the cache in front, by provider and outcome (ok; retry: failed, tried again; failed: given up)",
    ["provider", "outcome"],
  );
  const purgedKeys = counter(
    "cache_purge_keys_total",
    "Keys purged from the cache in front, by provider",
    ["provider"],
  );
  const pictureChecks = counter(
    "picture_fetches_total",
    "Feed pictures asked for by the picture pass, by outcome (fetched, not-modified, failed)",
    ["outcome"],
  );
  new Gauge({
    name: "articles",
    help: "Articles in the database",
    registers: [registry],
    // Every web process counts the same table: several processes' counts are one count.
    aggregator: "max",
    async collect() {
      try {
        this.set(await countArticles());
      } catch {
        // The database is away: the gauge keeps its last value; /readyz says why.
      }
    },
  });

  return {
    registry,
    /** The text `/metrics` answers: this process's metrics (all processes' behind a supervisor). */
    render: (): Promise<string> => registry.metrics(),
    observeRequest(method: string, path: string, status: number, seconds: number) {
      const route = routeLabel(path);
      httpRequests.inc({ method, route, status: String(status) });
      httpDuration.observe({ route }, seconds);
    },
    /** A page answered from the cache, before Express: counted, not timed (it takes microseconds). */
    observeHit(path: string, status: number) {
      const route = routeLabel(path);
      const key = `${status} ${route}`;
      const pending = pendingHits.get(key);
      if (pending) pending.count += 1;
      else pendingHits.set(key, { route, status: String(status), count: 1 });
    },
    observePage(event: PageEvent) {
      if (event === "render") renders.inc();
      else pageCache.inc({ outcome: event });
    },
    /** A purge request's outcome (server/cache/purge.ts). */
    observePurge(provider: string, outcome: PurgeOutcome, keys: number) {
      purges.inc({ provider, outcome });
      if (outcome === "ok") purgedKeys.inc({ provider }, keys);
    },
    observePass(summary: IngestSummary) {
      ingestPasses.inc();
      for (const feed of summary.feeds) {
        if (feed.outcome === "not-due") continue;
        feedFetches.inc({ outcome: feed.outcome });
        feedDuration.observe(feed.durationMs / 1000);
      }
      articlesStored.inc({ kind: "new" }, summary.inserted);
      articlesStored.inc({ kind: "updated" }, summary.updated);
      if (summary.pictures) {
        pictureChecks.inc({ outcome: "fetched" }, summary.pictures.fetched);
        pictureChecks.inc({ outcome: "not-modified" }, summary.pictures.notModified);
        pictureChecks.inc({ outcome: "failed" }, summary.pictures.failed);
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
