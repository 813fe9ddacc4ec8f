/**
 * Publishers' feed servers for `bench/ingest.ts`, run as its child process: FEEDS feeds of 20 items
 * spread over HOSTS servers on 127.0.0.1, each answer after LATENCY_MS, with ETags for 304s.
 * Sends the feed URLs and one feed's size to the parent and serves until killed.
 */
import { rssFeed, startFixtureServer } from "../server/ingest/test-server";

const FEEDS = Number(process.env.FEEDS ?? 30);
const HOSTS = Number(process.env.HOSTS ?? 15);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 200);

const servers = await Promise.all(Array.from({ length: HOSTS }, () => startFixtureServer()));
const urls: string[] = [];
const bodies: string[] = [];
servers.forEach((server, s) => {
  for (let f = 0; f < FEEDS / HOSTS; f++) {
    const name = `feed-${s}-${f}`;
    const body = rssFeed(
      `Bench ${name}`,
      Array.from({ length: 20 }, (_, i) => ({
        guid: `${name}-${i}`,
        title: `Story ${i} of ${name}`,
        // About 3 KB of body per item, so a feed weighs what the real-world corpus averages (~60 KB).
        description:
          `<p>Paragraph about story ${i} with <a href="https://example.org/${i}">a link</a>, <em>emphasis</em> and an ampersand &amp; an entity &#8217; in plain running text.</p>`.repeat(
            20,
          ),
        date: new Date(Date.UTC(2026, 10, 1 + (i % 20), 8)).toUTCString(),
      })),
    );
    bodies.push(body);
    server.route(`/${name}.xml`, async (req, res) => {
      await new Promise((r) => setTimeout(r, LATENCY_MS));
      if (req.headers["if-none-match"] === `"${name}"`) {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/rss+xml", etag: `"${name}"` }).end(body);
    });
    urls.push(server.url(`/${name}.xml`));
  }
});
process.send?.({ urls, bytes: Buffer.byteLength(bodies[0] ?? "") });
process.on("disconnect", () => process.exit(0));
