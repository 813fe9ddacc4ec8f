import http from "node:http";
import type { AddressInfo } from "node:net";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/** A real HTTP server on 127.0.0.1 standing in for publishers' feed servers in tests. */
export interface FixtureServer {
  url(path: string): string;
  route(path: string, handler: Handler): void;
  hits(path: string): number;
  /** Most requests handled at the same time, overall and per path prefix. */
  maxConcurrent(): number;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const routes = new Map<string, Handler>();
  const hitCounts = new Map<string, number>();
  const requests: FixtureServer["requests"] = [];
  let active = 0;
  let peak = 0;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    hitCounts.set(path, (hitCounts.get(path) ?? 0) + 1);
    requests.push({ path, headers: req.headers });
    active++;
    peak = Math.max(peak, active);
    res.on("close", () => active--);
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404).end("not found");
      return;
    }
    void Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    route: (path, handler) => void routes.set(path, handler),
    hits: (path) => hitCounts.get(path) ?? 0,
    maxConcurrent: () => peak,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function rssFeed(
  title: string,
  items: { guid: string; title: string; description?: string; date?: string; link?: string }[],
  extra = "",
): string {
  const body = items
    .map(
      (i) => `<item>
  <guid isPermaLink="false">${i.guid}</guid>
  <title>${i.title}</title>
  <link>${i.link ?? `https://sample.example.org/${i.guid}`}</link>
  <description>${i.description ?? `About ${i.title}`}</description>
  <pubDate>${i.date ?? "Mon, 02 Jun 2025 10:00:00 GMT"}</pubDate>
</item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${title}</title><link>https://sample.example.org/</link>${extra}
${body}
</channel></rss>`;
}
