import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Database } from "../db/client";
import * as schema from "../db/schema";
import { testDatabases } from "../db/test-databases";
import {
  articleById,
  correctionsOf,
  latestCorrections,
  latestArticles,
  relatedArticles,
} from "./repository";
import { homeLists } from "./home-lists";
import { archiveArticles, archiveYears } from "./archive";
import { articleSitemap, articleSitemapMonths, categoryLastChanged } from "../seo/queries";
import { RANKED_MATCHES, searchSite } from "./search";
import { refreshSearchWindows } from "./search-window";

/**
 * The queries behind the home, category, article and archive pages, as PostgreSQL plans them over
 * 20,000 articles: each must be served by an index, never by reading the whole table.
 */
const postgres = testDatabases().find((d) => d.name === "postgres");
if (!postgres) console.warn("TEST_DATABASE_URL is not set: the query plan test was NOT run.");

interface Plan {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: Plan[];
}

const nodes = (plan: Plan): Plan[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

describe.skipIf(!postgres)("query plans on PostgreSQL", () => {
  let handle: Awaited<ReturnType<NonNullable<typeof postgres>["open"]>>;
  let pool: pg.Pool;
  let captured: { sql: string; params: unknown[] }[] = [];
  let db: Database;

  beforeAll(async () => {
    if (!postgres) return;
    handle = await postgres.open();
    await handle.migrate();
    await handle.db.execute(sql`
      INSERT INTO articles (id, category, link, title, excerpt, content, author, published_at)
      SELECT 'a' || n,
             (ARRAY['local-news','national-news','world-news','politics','business',
                    'technology','sports','arts-culture'])[1 + n % 8],
             'https://sample.example.org/' || n, 'Story ' || n, 'About story ' || n, '<p>x</p>',
             'Staff Writer', timestamptz '2022-01-01' + (n || ' hours')::interval
        FROM generate_series(1, 20000) AS n`);
    // A few stories taken down, pinned and corrected, as the newsroom leaves them.
    await handle.db.execute(sql`
      UPDATE articles SET taken_down_at = now(), takedown_reason = 'Legal request'
       WHERE id IN ('a19990', 'a19000', 'a50')`);
    await handle.db.execute(sql`
      INSERT INTO story_pins (article_id, position, expires_at)
      SELECT 'a' || n, n, now() + interval '1 day' FROM generate_series(1, 3) AS n`);
    await handle.db.execute(sql`
      INSERT INTO corrections (article_id, text, published_at)
      SELECT 'a' || (1 + n * 7 % 20000), 'Corrected ' || n,
             timestamptz '2023-01-01' + (n || ' hours')::interval
        FROM generate_series(1, 5000) AS n`);
    await handle.db.execute(sql`ANALYZE articles, story_pins, corrections`);
    // The same repository functions the pages call, on a connection that notes every query.
    const [current] = rowsOf<{ name: string }>(
      await handle.db.execute(sql`SELECT current_database() AS name`),
    );
    const url = new URL(process.env.TEST_DATABASE_URL ?? "");
    url.pathname = `/${current?.name ?? ""}`;
    pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    // The database is dropped WITH (FORCE) at the end: a connection it ends must not throw.
    pool.on("error", () => undefined);
    db = drizzle(pool, {
      schema,
      logger: { logQuery: (query, params) => void captured.push({ sql: query, params }) },
    });
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await handle?.dispose();
  });

  async function plansOf(read: () => Promise<unknown>): Promise<Plan[]> {
    captured = [];
    await read();
    const plans: Plan[] = [];
    for (const query of captured) {
      const { rows } = await pool.query<{ "QUERY PLAN": { Plan: Plan }[] }>(
        `EXPLAIN (FORMAT JSON) ${query.sql}`,
        query.params,
      );
      const plan = rows[0]?.["QUERY PLAN"][0]?.Plan;
      if (plan) plans.push(plan);
    }
    expect(plans.length).toBeGreaterThan(0);
    return plans;
  }

  /** No full read of a table: every access to articles (or `tables`) goes through an index. */
  function expectIndexed(plans: Plan[], tables = ["articles"]) {
    const scans = plans.flatMap(nodes).filter((n) => tables.includes(n["Relation Name"] ?? ""));
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) {
      expect(scan["Node Type"], JSON.stringify(plans)).toMatch(
        /^(Index|Index Only|Bitmap Heap) Scan$/,
      );
    }
  }

  it("home and the site feed: the newest articles, the featured and recent lists", async () => {
    expectIndexed(await plansOf(() => latestArticles(db, { limit: 5 })));
    // With the pins, whose stories are read by their key.
    expectIndexed(await plansOf(() => homeLists(db)));
  });

  it("corrections: a story's, and the newest of all", async () => {
    expectIndexed(await plansOf(() => correctionsOf(db, "a370")), ["corrections"]);
    expectIndexed(await plansOf(() => latestCorrections(db, 50)), ["articles", "corrections"]);
  });

  it("a category page: one category's newest", async () => {
    expectIndexed(await plansOf(() => latestArticles(db, { category: "politics", limit: 15 })));
  });

  it("an article page: the article, its related stories and the latest others", async () => {
    const plans = await plansOf(() => articleById(db, "a100"));
    expectIndexed(plans);
    const article = await articleById(db, "a100");
    if (!article) throw new Error("seeded article missing");
    expectIndexed(await plansOf(() => relatedArticles(db, article)));
    expectIndexed(await plansOf(() => latestArticles(db, { limit: 4, excludeId: "a100" })));
  });

  it("the archives: a year, with and without a category", async () => {
    expectIndexed(
      await plansOf(() =>
        archiveArticles(db, { category: "sports", year: 2023, limit: 30, offset: 0 }),
      ),
    );
    expectIndexed(await plansOf(() => archiveArticles(db, { year: 2023, limit: 30, offset: 30 })));
    // Read on from a story (keyset paging), forwards and back.
    const [from] = (await archiveArticles(db, { year: 2023, limit: 30, offset: 0 })).articles;
    if (!from) throw new Error("no article in 2023");
    for (const direction of ["after", "before"] as const) {
      const cursor = { direction, date: from.date, id: from.id };
      expectIndexed(
        await plansOf(() => archiveArticles(db, { year: 2023, limit: 30, offset: 0, cursor })),
      );
    }
    // Years and counts come from archive_counts: the articles are not read at all.
    const years = await plansOf(() => archiveYears(db));
    expect(years.flatMap(nodes).map((n) => n["Relation Name"])).not.toContain("articles");
  });

  it("search: a word every story holds, through the newest stories' window", async () => {
    await refreshSearchWindows(handle.db, []);
    const all = await searchSite(db, "story", { page: 1 });
    expect(all.total).toBe(RANKED_MATCHES);
    await refreshSearchWindows(handle.db, [500, 2_000]);
    const windowed = () => searchSite(db, "story", { page: 1 });
    const indexesOf = (plans: Plan[]) => plans.flatMap(nodes).map((n) => n["Index Name"]);
    const plans = await plansOf(windowed);
    expectIndexed(plans);
    // Every story matches: the window's stories are read along the date index, and the whole
    // table's word index is not opened.
    expect(indexesOf(plans)).not.toContain("articles_search_idx");
    // A rarer word: the window's own index.
    const rare = await plansOf(() => searchSite(db, "19995", { page: 1 }));
    expectIndexed(rare);
    expect(indexesOf(rare)).toContain("articles_search_window_500");
    // The same hits and count as one read of every match, and the older ones a link away.
    const newest = await windowed();
    expect(newest).toEqual(all);
    const older = await searchSite(db, "story", { page: 1, before: newest.older });
    expect(older.total).toBe(RANKED_MATCHES);
    const ids = (page: typeof all) => page.hits.map((h) => (h.kind === "article" ? h.id : ""));
    expect(ids(older).filter((id) => ids(newest).includes(id))).toEqual([]);
  });

  it("search: a typo, corrected, read through the same window, never by a walk", async () => {
    const typo = () => searchSite(db, "stoory", { page: 1 });
    expectIndexed(await plansOf(typo));
    expect(
      captured.filter((q) => /OFFSET/.test(q.sql) && !/LIMIT \$\d+ OFFSET/.test(q.sql)),
    ).toEqual([]);
    expect(await typo()).toMatchObject({ near: "story", total: RANKED_MATCHES });
    await refreshSearchWindows(handle.db, []);
  });

  it("the sitemaps: the index, a month's file, the categories' last changes", async () => {
    const month = new Date().toISOString().slice(0, 7);
    expectIndexed(await plansOf(() => articleSitemapMonths(db)));
    expectIndexed(await plansOf(() => articleSitemap(db, month)));
    expectIndexed(await plansOf(() => categoryLastChanged(db, ["politics", "sports"])));
  });
});
