import { describe, expect, it } from "vitest";
import { ReadCache } from "../news/read-cache";
import type { FeedOutcome } from "../ingest/ingest";
import { createMetrics, routeLabel } from "./metrics";

const value = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("metrics", () => {
  it("labels paths by route pattern, fixed pages by their path", () => {
    expect(routeLabel("/article/some-story")).toBe("/article/:id");
    expect(routeLabel("/article/some-story.data")).toBe("/article/:id");
    expect(routeLabel("/local-news")).toBe("/local-news");
    expect(routeLabel("/local-news/rss.xml")).toBe("/local-news/rss.xml");
    expect(routeLabel("/wp-admin/x.php")).toBe("other");
    expect(routeLabel(`/images/${"0a".repeat(32)}/640.avif`)).toBe("/images/:hash/:file");
    expect(routeLabel("/images/sample/harbor.svg")).toBe("/images/*");
  });

  it("counts cache hits by route and status once each, when /metrics is read", async () => {
    const metrics = createMetrics(async () => 5);
    for (let i = 0; i < 3; i++) metrics.observeHit("/article/a-story", 200);
    metrics.observeHit("/article/another", 200);
    metrics.observeHit("/local-news", 304);
    metrics.observePage("miss");

    const first = await metrics.render();
    expect(
      value(first, 'http_requests_total{method="GET",route="/article/:id",status="200"}'),
    ).toBe(4);
    expect(value(first, 'http_requests_total{method="GET",route="/local-news",status="304"}')).toBe(
      1,
    );
    expect(value(first, 'page_cache_requests_total{outcome="hit"}')).toBe(5);
    expect(value(first, 'page_cache_requests_total{outcome="miss"}')).toBe(1);
    // Hits are counted, not timed: the latency histogram holds only what the app answered.
    expect(first).not.toMatch(/http_request_duration_seconds_count\{route="\/article\/:id"\}/);

    // Read again with nothing new: the same totals, not counted twice.
    metrics.observeHit("/article/a-story", 200);
    const second = await metrics.render();
    expect(
      value(second, 'http_requests_total{method="GET",route="/article/:id",status="200"}'),
    ).toBe(5);
    expect(value(second, 'page_cache_requests_total{outcome="hit"}')).toBe(6);
    expect(value(second, "articles")).toBe(5);
  });

  it("times and counts what the app answered", async () => {
    const metrics = createMetrics(async () => 0);
    metrics.observeRequest("GET", "/article/a-story", 200, 0.012);
    const text = await metrics.render();
    expect(value(text, 'http_requests_total{method="GET",route="/article/:id",status="200"}')).toBe(
      1,
    );
    expect(value(text, 'http_request_duration_seconds_count{route="/article/:id"}')).toBe(1);
    expect(
      value(text, 'http_request_duration_seconds_bucket{le="0.025",route="/article/:id"}'),
    ).toBe(1);
    expect(
      value(text, 'http_request_duration_seconds_bucket{le="0.01",route="/article/:id"}'),
    ).toBe(0);
  });

  it("counts the read cache's hits and misses since the last scrape", async () => {
    const cache = new ReadCache(1024 * 1024, 60_000);
    const metrics = createMetrics(async () => 0, cache);
    for (let i = 0; i < 3; i++) await cache.read("home", async () => ["a story"]);
    const first = await metrics.render();
    expect(value(first, 'read_cache_requests_total{outcome="hit"}')).toBe(2);
    expect(value(first, 'read_cache_requests_total{outcome="miss"}')).toBe(1);
    await cache.read("home", async () => ["a story"]);
    const second = await metrics.render();
    expect(value(second, 'read_cache_requests_total{outcome="hit"}')).toBe(3);
    expect(value(second, 'read_cache_requests_total{outcome="miss"}')).toBe(1);
  });
});

describe("feed reads in metrics", () => {
  it("are counted by what each came to, so a feed that is not a feed is not an ok fetch", async () => {
    const metrics = createMetrics(async () => 0);
    const feed = (outcome: FeedOutcome) => ({
      url: "https://feeds.example.org/x.xml",
      category: "local-news",
      outcome,
      status: 200,
      error: null,
      items: 0,
      inserted: 0,
      updated: 0,
      durationMs: 5,
    });
    metrics.observePass({
      feeds: [
        feed("stored"),
        feed("stored"),
        feed("no-items"),
        feed("not-a-feed"),
        feed("not-due"),
      ],
      fetched: 3,
      notModified: 0,
      failed: 1,
      notDue: 1,
      inserted: 0,
      updated: 0,
      pictures: {
        listed: 4,
        fetched: 3,
        notModified: 1,
        failed: 2,
        removed: 0,
        articlesChanged: 3,
      },
      durationMs: 20,
    });
    const text = await metrics.render();
    expect(value(text, 'feed_fetches_total{outcome="stored"}')).toBe(2);
    expect(value(text, 'picture_fetches_total{outcome="fetched"}')).toBe(3);
    expect(value(text, 'picture_fetches_total{outcome="not-modified"}')).toBe(1);
    expect(value(text, 'picture_fetches_total{outcome="failed"}')).toBe(2);
    expect(value(text, 'feed_fetches_total{outcome="no-items"}')).toBe(1);
    expect(value(text, 'feed_fetches_total{outcome="not-a-feed"}')).toBe(1);
    expect(value(text, 'feed_fetches_total{outcome="not-due"}')).toBeUndefined();
  });
});
