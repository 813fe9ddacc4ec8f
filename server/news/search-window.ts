import { eq, sql } from "drizzle-orm";
import { rowsOf, type Database } from "../db/client";
import { archiveCounts, searchWindows } from "../db/schema";
import { EVERY_CATEGORY } from "./archive";
import { remembered } from "./read-cache";

/**
 * The windows of the newest live stories kept, smallest first (decision 035), each with a GIN index
 * of its own (a window of n holds the newest n stories that lead their group, as the archive counts
 * count them, and the other versions published since the oldest of them): the whole table's index holds a common word's every story since the first, and a
 * phrase's candidates are each read from the table to check the words' order. Search ranks the
 * matches among the newest 20,000 (the largest) when they hold a page of them; the smaller window
 * only makes a very common word's search cheaper (its newest matches are all among the newest few
 * thousand stories), and never changes its hits.
 */
const WINDOWS = [5_000, 20_000];
/** A window's index is built anew once a quarter more stories have come into it. */
const SLACK = 0.25;

/** Two processes must not build a window's index at once (any number unlike the others). */
const WINDOW_LOCK_ID = 7_241_035;

export interface SearchWindow {
  stories: number;
  /** The publication date of its oldest story: its index holds the stories from this on. */
  since: Date;
  /** The largest window: a search that finds a page in it reads no older stories. */
  cuts: boolean;
  builtAt: Date;
}

/**
 * The windows the site holds, newest first (the smallest): none while it has too few stories.
 * Kept in the read cache until stories change, which is also when windows move.
 */
export const searchWindowsOf = remembered("searchWindows", readWindows);

async function readWindows(db: Database): Promise<SearchWindow[]> {
  return db.select().from(searchWindows).orderBy(searchWindows.stories);
}

const indexName = (stories: number) => `articles_search_window_${stories}`;

/**
 * Moves each window (WINDOWS, or `windows` in tests) that has taken in a quarter more stories since
 * it was built: its index is built for the newest `stories` (about 0.3 s at 25,000 on PostgreSQL)
 * and replaces the old one in one transaction, so a search meets one or the other. A site with
 * fewer than a window's number and a quarter has none of it, and loses it below its number. Two
 * small reads when nothing moves (the site's total, and the stories first seen since a window was
 * built, along their index). Returns whether a window moved; the caller announces changed stories
 * then, so that no process keeps an old one.
 */
export async function refreshSearchWindows(
  db: Database,
  windows: readonly number[] = WINDOWS,
): Promise<boolean> {
  const held = new Map((await readWindows(db)).map((w) => [w.stories, w]));
  const [site] = await db
    .select({ stories: sql<string | null>`sum(${archiveCounts.articles})` })
    .from(archiveCounts)
    .where(eq(archiveCounts.category, EVERY_CATEGORY));
  const total = Number(site?.stories ?? 0);
  let moved = false;
  // A window no longer asked for goes, with its index.
  for (const stories of held.keys()) {
    if (windows.includes(stories)) continue;
    await moveWindow(db, stories, null);
    moved = true;
  }
  for (const stories of windows) {
    const slack = Math.floor(stories * SLACK);
    const cuts = stories === windows.at(-1);
    const window = held.get(stories);
    let keep: boolean;
    if (!window) {
      keep = total <= stories + slack;
    } else {
      // Counted along the index of first sightings, at most `slack + 1` entries.
      const counted = await db.execute(sql`
        SELECT count(*) AS n FROM (
          SELECT 1 FROM articles
           WHERE taken_down_at IS NULL AND first_seen_at > ${window.builtAt}
           LIMIT ${slack + 1}) AS since_built`);
      const taken = Number(rowsOf<{ n: number | string }>(counted)[0]?.n ?? 0);
      keep = taken <= slack && total >= stories && window.cuts === cuts;
    }
    if (!keep) {
      await moveWindow(db, stories, cuts);
      moved = true;
    }
  }
  return moved;
}

/**
 * Moves what ingest passes added to the search indexes since the last merge (the stories' words,
 * every window's, and the headline words a typo is corrected by) from their GIN pending lists into
 * the indexes themselves. GIN puts new entries in an unsorted list that every search reads whole
 * until VACUUM merges it, and autovacuum comes after tens of thousands of new stories on a large
 * site; the site's daily upkeep runs this on PostgreSQL (server/db/upkeep.ts, decision 035).
 * Returns the pages merged.
 */
export async function mergePendingSearchEntries(db: Database): Promise<number> {
  const merged = await db.execute(sql`
    SELECT coalesce(sum(gin_clean_pending_list(i.indexrelid)), 0) AS pages
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_am am ON am.oid = c.relam
     WHERE am.amname = 'gin' AND i.indrelid IN ('articles'::regclass, 'search_words'::regclass)`);
  return Number(rowsOf<{ pages: number | string }>(merged)[0]?.pages ?? 0);
}

/**
 * Builds the window of the newest `stories` anew, or drops it when there are fewer or when it is no
 * longer asked for (`cuts` null).
 */
async function moveWindow(db: Database, stories: number, cuts: boolean | null): Promise<void> {
  const index = indexName(stories);
  const next = `${index}_next`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${WINDOW_LOCK_ID})`);
    // Stories counted as refreshSearchWindows counts them (the archive counts): a group once, by
    // its lead. Counting its other versions too, a site whose leads had fallen below the window's
    // number would keep a window the count says it lacks, and build it anew on every pass.
    const edge = await tx.execute(sql`
      SELECT published_at FROM articles WHERE taken_down_at IS NULL AND group_lead
       ORDER BY published_at DESC OFFSET ${stories - 1} LIMIT 1`);
    const oldest = rowsOf<{ published_at: Date | string }>(edge)[0];
    await tx.delete(searchWindows).where(eq(searchWindows.stories, stories));
    await tx.execute(sql.raw(`DROP INDEX IF EXISTS ${next}`));
    if (!oldest || cuts === null) {
      // Too few stories left for this window (taken down, deleted): search reads them all.
      await tx.execute(sql.raw(`DROP INDEX IF EXISTS ${index}`));
      return;
    }
    const since = new Date(oldest.published_at);
    // The names and the date are ours (a Date's ISO form), never a reader's text.
    await tx.execute(
      sql.raw(`CREATE INDEX ${next} ON articles USING gin (search)
                WHERE published_at >= '${since.toISOString()}'::timestamptz
                  AND taken_down_at IS NULL`),
    );
    await tx.execute(sql.raw(`DROP INDEX IF EXISTS ${index}`));
    await tx.execute(sql.raw(`ALTER INDEX ${next} RENAME TO ${index}`));
    await tx.insert(searchWindows).values({ stories, since, cuts });
  });
}
