/** bench:growth's filling: the sample feeds' articles copied back in time, in bulk. */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { rowsOf, type DatabaseHandle } from "../../server/db/client";

/** A 30-feed site stores about this many articles a year (issue #35). */
export const PER_YEAR = 100_000;

export async function countOf(database: DatabaseHandle): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await database.db.execute(sql`SELECT count(*)::int AS n FROM articles`),
  );
  return row?.n ?? 0;
}

/**
 * Copies the sample feeds' articles back in time until the site holds `target`, at PER_YEAR a
 * year: copy k of an article is k steps older (published, first seen and updated), with its own
 * id, guid and link. Copies of one step share a first-seen time, as a pass's articles do. They are
 * written oldest first, so the table's pages hold them in the order a site stores its stories (a
 * week's news side by side, not spread over the whole table).
 */
export async function fill(database: DatabaseHandle, target: number): Promise<void> {
  const originals = await countOf(database);
  const copies = Math.max(0, Math.ceil((target - originals) / originals));
  const stepSeconds = Math.round(((target / PER_YEAR) * 365 * 86_400) / Math.max(1, copies));
  const perStatement = Math.max(1, Math.floor(20_000 / originals));
  const started = performance.now();
  for (let to = copies, done = 0; to >= 1; to -= perStatement) {
    const from = Math.max(1, to - perStatement + 1);
    await insertCopies(database, { from, to, stepSeconds, tag: "y" });
    done += to - from + 1;
    process.stdout.write(`\r  ${done} of ${copies} copies`);
  }
  // As autovacuum leaves a PostgreSQL table, and the web process's daily upkeep the embedded one
  // (server/db/upkeep.ts, decision 030).
  await database.db.execute(sql`VACUUM ANALYZE articles`);
  console.log(` in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * Copies k = `from`…`to` of each of the sample's own articles, k steps of `stepSeconds` older, with
 * their own id, guid and link (`-<tag>k`). Their first sighting and update move back with them, or,
 * with `seenNow`, are now: stories just come in, dated over the days before.
 */
export async function insertCopies(
  database: DatabaseHandle,
  copies: { from: number; to: number; stepSeconds: number; tag: string; seenNow?: boolean },
): Promise<void> {
  const { from, to, stepSeconds, tag } = copies;
  const back = (column: string) =>
    copies.seenNow
      ? sql`now()`
      : sql`${sql.raw(`a.${column}`)} - make_interval(secs => k * ${stepSeconds}::int)`;
  await database.db.execute(sql`
    INSERT INTO articles (id, feed_id, category, guid, link, title, excerpt, content,
                          sanitize_policy, image, picture, pictures_listed, author, published_at,
                          first_seen_at, updated_at)
    SELECT a.id || ${`-${tag}`} || k, a.feed_id, a.category, a.guid || ${`-${tag}`} || k,
           a.link || ${`#${tag}`} || k, a.title, a.excerpt, a.content, a.sanitize_policy, a.image,
           a.picture, true, a.author,
           a.published_at - make_interval(secs => k * ${stepSeconds}::int),
           ${back("first_seen_at")}, ${back("updated_at")}
      FROM articles a, generate_series(${from}::int, ${to}::int) AS k
     WHERE a.id NOT LIKE '%-y%'
     ORDER BY k DESC, a.first_seen_at, a.id`);
}
