/**
 * Stored articles whose HTML was sanitised under an older SANITIZE_POLICY_VERSION are sanitised again
 * with the current policy, so what pages show never lags behind it. Only the sanitised HTML is stored:
 * a stricter policy reaches every article here; a looser one reaches an article when its feed brings
 * the item again (decision 018). The newsroom's own stories are left as they are: their bodies were
 * sanitised with its stricter rule for pictures (server/newsroom/post-body.ts), which this policy
 * alone would undo.
 */
import { and, asc, eq, gt, inArray, lt, not } from "drizzle-orm";
import { storyChangeKeys } from "../../shared/cache-keys";
import type { DatabaseHandle } from "../db/client";
import { articles } from "../db/schema";
import { SANITIZE_POLICY_VERSION, sanitizeHtml } from "./sanitize";

export interface ResanitizeResult {
  /** Articles that were sanitised under an older policy. */
  checked: number;
  /** Those whose HTML changed. */
  rewritten: number;
}

/** Sanitises again, `batchSize` articles to a transaction, and tells the caches when any HTML changed. */
export async function resanitizeArticles(
  database: DatabaseHandle,
  batchSize = 200,
): Promise<ResanitizeResult> {
  const result: ResanitizeResult = { checked: 0, rewritten: 0 };
  // A row written meanwhile (by an ingest pass) has the current version and is left alone.
  const older = and(lt(articles.sanitizePolicy, SANITIZE_POLICY_VERSION), not(articles.own));
  let lastId = "";
  const rewritten: { id: string; category: string }[] = [];
  for (;;) {
    const rows = await database.db
      .select({
        id: articles.id,
        category: articles.category,
        link: articles.link,
        content: articles.content,
      })
      .from(articles)
      .where(and(older, gt(articles.id, lastId)))
      .orderBy(asc(articles.id))
      .limit(batchSize);
    const last = rows.at(-1);
    if (last === undefined) break;
    await database.db.transaction(async (tx) => {
      for (const row of rows) {
        const content = sanitizeHtml(row.content, row.link);
        if (content === row.content) continue;
        const written = await tx
          .update(articles)
          .set({ content, sanitizePolicy: SANITIZE_POLICY_VERSION, picturesListed: false })
          .where(and(eq(articles.id, row.id), older))
          .returning({ id: articles.id });
        result.rewritten += written.length;
        if (written.length > 0) rewritten.push({ id: row.id, category: row.category });
      }
      const ids = rows.map((row) => row.id);
      await tx
        .update(articles)
        .set({ sanitizePolicy: SANITIZE_POLICY_VERSION })
        .where(and(inArray(articles.id, ids), older));
    });
    result.checked += rows.length;
    lastId = last.id;
  }
  if (result.rewritten > 0) await database.announceChange(storyChangeKeys(rewritten));
  return result;
}
