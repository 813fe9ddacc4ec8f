import { eq, inArray, sql } from "drizzle-orm";
import { ownPath, type ArticlePicture } from "../../shared/picture";
import { storyChangeKeys } from "../../shared/cache-keys";
import { rowsOf, type DatabaseHandle } from "../db/client";
import { newsroomMedia, pictures } from "../db/schema";
import { runPool, type PoolLimits } from "../lib/pool";
import { nextAttemptAfterFailure } from "../lib/backoff";
import type { Logger } from "../logger";
import { fetchPicture, type PictureFetchOptions } from "./fetch";
import { makeCopiesAhead } from "./copies-ahead";
import { inlinePictureMaker, type PictureMaker } from "./picture-maker";
import { listArticlePictures, listBlogPictures } from "./picture-listing";
import type { PictureStore } from "./store";

/**
 * The picture pass, run after each ingest pass under the same lock (decision 022): it lists the
 * pictures each new or changed article names, fetches those not yet kept (politely: a few at a
 * time, two per host, with the feed reader's User-Agent), keeps their originals in the picture
 * store, copies each article's top picture onto the article for the pages' lists, and removes the
 * pictures no article or blog post names any more. A picture that cannot be had leaves its
 * article shown with the default picture and is tried again later, backing off as feeds do.
 * The listing is picture-listing.ts's, the copies made ahead of time copies-ahead.ts's.
 */

/** A kept picture is asked again (conditionally) this long after it was last fetched. */
export const RECHECK_AFTER_MS = 7 * 24 * 60 * 60_000;

/** Pictures fetched in one pass at most; the rest wait for the next pass. */
const PICTURES_PER_PASS = 300;

/**
 * Time one pass spends on pictures, under the ingest lock (issue 32: ten slow pictures made a
 * 76 s pass, and a 300-picture pass of them would hold the lock for an hour). A picture not reached
 * in time, or cut off by it, is left as it was, not failed: the next pass takes it first.
 */
const PICTURE_PASS_BUDGET_MS = 120_000;

/**
 * Time the pictures of one feed may take in a pass, added up over its pictures (two whole fetches),
 * so that a feed of slow or costly pictures leaves the rest of the pass to the others.
 */
const PICTURE_FEED_BUDGET_MS = 30_000;

const DEFAULT_PICTURE_LIMITS: PoolLimits = { global: 4, perHost: 2 };

export interface PicturePassOptions {
  database: DatabaseHandle;
  store: PictureStore;
  /** Reads fetched pictures and makes their first copies; sharp in this process when absent. */
  maker?: PictureMaker;
  logger: Logger;
  /** Our own origin: a picture address on it is our own file, shown as it is. */
  siteUrl: string;
  userAgent: string;
  allowPrivateAddresses: boolean;
  limits?: PoolLimits;
  /** Overrides of the fetch limits and name resolution (tests). */
  fetchOptions?: Partial<Pick<PictureFetchOptions, "timeoutMs" | "maxBytes" | "lookup">>;
  /** Overrides of PICTURE_PASS_BUDGET_MS and PICTURE_FEED_BUDGET_MS. */
  budget?: { passMs?: number; feedMs?: number };
  now?: Date;
  signal?: AbortSignal;
}

export interface PicturePassSummary {
  /** Articles whose pictures were listed. */
  listed: number;
  fetched: number;
  notModified: number;
  failed: number;
  /** Due but left for the next pass, as the pass's or their feed's time was spent (absent: none). */
  deferred?: number;
  /** Addresses no article or post names any more, and the originals removed with them. */
  removed: number;
  /** Articles whose top picture, as pages show it, changed. */
  articlesChanged: number;
  /** What the caches in front must drop for them (shared/cache-keys.ts). */
  purgeKeys?: string[];
}

/** A picture due, with the feed whose articles name it (the lowest id when several do). */
type PictureRow = typeof pictures.$inferSelect & { feed: number | null };

const hostOf = (url: string) => URL.parse(url)?.host ?? url;

type Outcome = "fetched" | "not-modified" | "failed" | "site" | "deferred";

/** Fetches (or revalidates) one address and records what came of it. */
async function checkPicture(
  row: PictureRow,
  options: PicturePassOptions,
  now: Date,
): Promise<Outcome> {
  const { database, store, logger } = options;
  const record = (values: Partial<typeof pictures.$inferInsert>) =>
    database.db
      .update(pictures)
      .set({ checkedAt: now, ...values })
      .where(eq(pictures.url, row.url));

  // A file of our own site (the bundled samples' pictures, a blog post's path): served by us already.
  const own = ownPath(row.url, options.siteUrl);
  // Only the site's picture folder holds pictures: another path of ours (a page, an address a
  // hostile feed made up) is not one, and is not asked again.
  if (own && !own.picture) {
    await record({
      picture: null,
      hash: null,
      lastError: `Not a picture of this site: ${own.path.slice(0, 200)}`,
      consecutiveFailures: row.consecutiveFailures + 1,
      nextAttemptAt: null,
    });
    return "failed";
  }
  if (own?.picture) {
    await record({
      picture: own.picture,
      hash: null,
      lastError: null,
      consecutiveFailures: 0,
      nextAttemptAt: null,
    });
    return "site";
  }

  // Validators only help while we still hold the bytes they describe.
  const kept = row.hash !== null && (await store.hasOriginal(row.hash));
  const result = await fetchPicture(row.url, {
    ...options.fetchOptions,
    userAgent: options.userAgent,
    allowPrivateAddresses: options.allowPrivateAddresses,
    etag: kept ? row.etag : null,
    lastModified: kept ? row.lastModified : null,
    signal: options.signal,
  });

  const fail = async (error: string) => {
    const failures = row.consecutiveFailures + 1;
    // A picture already kept stays shown; a new one waits for a later pass.
    await record({
      lastError: error,
      consecutiveFailures: failures,
      nextAttemptAt: nextAttemptAfterFailure(now, failures, null),
    });
    logger.warn({ picture: row.url, reason: error, failures }, "picture not taken");
    return "failed" as const;
  };

  if (result.kind === "not-modified") {
    await record({
      lastError: null,
      consecutiveFailures: 0,
      nextAttemptAt: new Date(now.getTime() + RECHECK_AFTER_MS),
    });
    return "not-modified";
  }
  // Cut off by the pass's or the feed's time (or a shutdown), not the picture's fault.
  if (result.kind === "error" && options.signal?.aborted) return "deferred";
  if (result.kind === "error") return fail(result.error);

  const maker = options.maker ?? inlinePictureMaker();
  const inspection = await maker.inspect(result.body);
  if (inspection.kind === "refused") return fail(`Not a usable picture: ${inspection.reason}`);
  const hash = await store.putOriginal(result.body);
  const { width, height, dominant } = inspection.picture;
  await makeCopiesAhead(
    store,
    maker,
    logger,
    { hash, original: result.body, size: { width, height }, url: row.url },
    options.signal,
  );
  const picture: ArticlePicture = { kind: "stored", hash, width, height, color: dominant };
  await record({
    picture,
    hash,
    etag: result.etag,
    lastModified: result.lastModified,
    lastError: null,
    consecutiveFailures: 0,
    nextAttemptAt: new Date(now.getTime() + RECHECK_AFTER_MS),
  });
  return "fetched";
}

/**
 * Copies each article's top picture, as pages show it, onto the article (the lists read it there),
 * unless staff chose the default picture for it. The newsroom's own stories are left alone: their
 * picture is an upload staff chose (server/newsroom/posts.ts), not a feed's address.
 */
async function copyTopPictures(
  database: DatabaseHandle,
): Promise<{ id: string; category: string }[]> {
  const set = await database.db.execute(sql`
    UPDATE articles a SET picture = p.picture
      FROM pictures p
     WHERE p.url = a.image AND p.picture IS NOT NULL AND a.picture IS DISTINCT FROM p.picture
       AND NOT a.default_picture AND NOT a.own
    RETURNING a.id, a.category`);
  const cleared = await database.db.execute(sql`
    UPDATE articles a SET picture = NULL
     WHERE a.picture IS NOT NULL AND NOT a.own
       AND (a.default_picture
            OR NOT EXISTS (SELECT 1 FROM pictures p WHERE p.url = a.image AND p.picture IS NOT NULL))
    RETURNING a.id, a.category`);
  type Changed = { id: string; category: string };
  return [...rowsOf<Changed>(set), ...rowsOf<Changed>(cleared)];
}

/**
 * Removes addresses nothing names, and the originals no remaining address keeps, nor an upload of
 * the newsroom's library (the same bytes as a feed's picture have the same hash).
 */
async function removeUnused(database: DatabaseHandle, store: PictureStore): Promise<number> {
  const removed = await database.db.execute(sql`
    DELETE FROM pictures p
     WHERE NOT EXISTS (SELECT 1 FROM article_pictures ap WHERE ap.url = p.url)
       AND NOT EXISTS (SELECT 1 FROM blog_posts b WHERE b.image = p.url)
    RETURNING p.hash`);
  const rows = rowsOf<{ hash: string | null }>(removed);
  const hashes = new Set(rows.flatMap((r) => (r.hash ? [r.hash] : [])));
  for (const hash of hashes) {
    const [still] = await database.db
      .select({ url: pictures.url })
      .from(pictures)
      .where(eq(pictures.hash, hash))
      .limit(1);
    const [uploaded] = await database.db
      .select({ id: newsroomMedia.id })
      .from(newsroomMedia)
      .where(eq(newsroomMedia.hash, hash))
      .limit(1);
    if (!still && !uploaded) await store.remove(hash);
  }
  return rows.length;
}

/**
 * The pictures due (never checked, or their next attempt come), at most PICTURES_PER_PASS: each
 * feed's first, then each feed's second, and so on, so that one feed naming hundreds of pictures
 * does not fill the pass and leave the others' for later. Within a turn, those never checked first.
 */
async function duePictures(database: DatabaseHandle, now: Date): Promise<PictureRow[]> {
  const ranked = await database.db.execute(sql`
    SELECT url, feed FROM (
      SELECT url, checked_at, feed,
             row_number() OVER (PARTITION BY feed ORDER BY checked_at NULLS FIRST, url) AS turn
        FROM (SELECT p.url, p.checked_at,
                     (SELECT min(a.feed_id) FROM article_pictures ap
                        JOIN articles a ON a.id = ap.article_id
                       WHERE ap.url = p.url) AS feed
                FROM pictures p
               WHERE p.checked_at IS NULL
                  OR (p.next_attempt_at IS NOT NULL
                      AND p.next_attempt_at <= ${now.toISOString()}::timestamptz)) due
    ) turns
    ORDER BY turn, checked_at NULLS FIRST, url
    LIMIT ${PICTURES_PER_PASS}`);
  const order = rowsOf<{ url: string; feed: number | null }>(ranked);
  if (order.length === 0) return [];
  const rows = await database.db
    .select()
    .from(pictures)
    .where(
      inArray(
        pictures.url,
        order.map((r) => r.url),
      ),
    );
  const byUrl = new Map(rows.map((row) => [row.url, row]));
  return order.flatMap(({ url, feed }) => {
    const row = byUrl.get(url);
    return row ? [{ ...row, feed: feed === null ? null : Number(feed) }] : [];
  });
}

export async function runPicturePass(options: PicturePassOptions): Promise<PicturePassSummary> {
  const { database } = options;
  const now = options.now ?? new Date();
  const listed = await listArticlePictures(database, options.logger);
  await listBlogPictures(database);

  const due = await duePictures(database, now);
  const passMs = options.budget?.passMs ?? PICTURE_PASS_BUDGET_MS;
  const feedMs = options.budget?.feedMs ?? PICTURE_FEED_BUDGET_MS;
  const passTime = AbortSignal.timeout(passMs);
  const passSignal = options.signal ? AbortSignal.any([passTime, options.signal]) : passTime;
  /** Time each feed's pictures took in this pass, by feed (null: pictures no feed names). */
  const spent = new Map<number | null, number>();

  const outcomes = await runPool(
    due,
    (row) => hostOf(row.url),
    options.limits ?? DEFAULT_PICTURE_LIMITS,
    async (row): Promise<Outcome> => {
      const left = feedMs - (spent.get(row.feed) ?? 0);
      if (passSignal.aborted || left <= 0) return "deferred";
      const signal = AbortSignal.any([passSignal, AbortSignal.timeout(Math.ceil(left))]);
      const started = performance.now();
      try {
        return await checkPicture(row, { ...options, signal }, now);
      } catch (error) {
        // Our side failed (the store's disk, the database): logged, the picture tried next pass.
        options.logger.error({ picture: row.url, err: error }, "picture could not be kept");
        return "failed";
      } finally {
        spent.set(row.feed, (spent.get(row.feed) ?? 0) + performance.now() - started);
      }
    },
  );

  const changedStories = await copyTopPictures(database);
  const removed = await removeUnused(database, options.store);
  const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length;
  return {
    listed,
    fetched: count("fetched") + count("site"),
    notModified: count("not-modified"),
    failed: count("failed"),
    deferred: count("deferred"),
    removed,
    articlesChanged: changedStories.length,
    purgeKeys: storyChangeKeys(changedStories),
  };
}
