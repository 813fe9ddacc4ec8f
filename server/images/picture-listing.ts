import { and, gt, inArray, not, sql } from "drizzle-orm";
import type { DatabaseHandle } from "../db/client";
import { articlePictures, articles, pictures } from "../db/schema";
import { MAX_URL_LENGTH } from "../lib/text";
import type { Logger } from "../logger";
import { bodyPictureUrls } from "./body";

/**
 * The picture pass's first step (pass.ts): which pictures each new or changed article and each blog
 * post names, kept as article_pictures rows and as pictures to fetch.
 */

/**
 * Only addresses normalisation would keep are listed: a longer one (stored before addresses were
 * capped) does not fit the addresses' indexes.
 */
const listable = (url: string) => url.length <= MAX_URL_LENGTH;

type UnlistedArticle = { id: string; image: string | null; content: string };

async function listPicturesOf(database: DatabaseHandle, rows: UnlistedArticle[]): Promise<void> {
  await database.db.transaction(async (tx) => {
    const ids = rows.map((row) => row.id);
    const named = rows.flatMap((row) =>
      [...new Set([...(row.image ? [row.image] : []), ...bodyPictureUrls(row.content)])]
        .filter(listable)
        .map((url) => ({ articleId: row.id, url })),
    );
    await tx.delete(articlePictures).where(inArray(articlePictures.articleId, ids));
    if (named.length > 0) {
      await tx.insert(articlePictures).values(named);
      await tx
        .insert(pictures)
        .values([...new Set(named.map((n) => n.url))].map((url) => ({ url })))
        .onConflictDoNothing();
    }
    await tx.update(articles).set({ picturesListed: true }).where(inArray(articles.id, ids));
  });
}

/**
 * Lists the pictures of articles stored or changed since the last pass. An article whose pictures
 * the database refuses is logged and left for the next pass: it must not keep the others (its
 * batch, and every later pass) from being listed.
 */
export async function listArticlePictures(
  database: DatabaseHandle,
  logger: Logger,
  batchSize = 500,
): Promise<number> {
  let listed = 0;
  let after = "";
  for (;;) {
    const rows = await database.db
      .select({ id: articles.id, image: articles.image, content: articles.content })
      .from(articles)
      .where(and(not(articles.picturesListed), gt(articles.id, after)))
      .orderBy(articles.id)
      .limit(batchSize);
    const last = rows.at(-1);
    if (!last) return listed;
    after = last.id;
    try {
      await listPicturesOf(database, rows);
      listed += rows.length;
    } catch {
      for (const row of rows) {
        try {
          await listPicturesOf(database, [row]);
          listed += 1;
        } catch (error) {
          logger.error({ article: row.id, err: error }, "pictures of an article not listed");
        }
      }
    }
  }
}

/** Blog posts' pictures (the blog's copy for search, refreshed after each pass) are kept too. */
export async function listBlogPictures(database: DatabaseHandle): Promise<void> {
  await database.db.execute(sql`
    INSERT INTO pictures (url)
    SELECT DISTINCT image FROM blog_posts
     WHERE image IS NOT NULL AND length(image) <= ${MAX_URL_LENGTH}
    ON CONFLICT DO NOTHING`);
}
