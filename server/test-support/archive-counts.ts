import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../db/client";
import { archiveCounts } from "../db/schema";
import { SAN_DIEGO_ZONE } from "../../shared/san-diego-time";

/**
 * What archive_counts holds (its non-zero rows) and what counting the rows lists show says, in the same
 * order: the triggers keep the one equal to the other (migrations 0016 and 0019). A category's rows count
 * the stories leading their group in it, the rows of category "" those leading their group.
 */
export async function archiveCountsAndRows(db: Database) {
  const counted = rowsOf<{ year: number; category: string; n: number }>(
    await db.execute(sql`
      SELECT year, category, count(*)::int AS n FROM (
        SELECT extract(year FROM published_at AT TIME ZONE ${SAN_DIEGO_ZONE})::int AS year,
               category
          FROM articles WHERE taken_down_at IS NULL AND category_lead
        UNION ALL
        SELECT extract(year FROM published_at AT TIME ZONE ${SAN_DIEGO_ZONE})::int, ''
          FROM articles WHERE taken_down_at IS NULL AND group_lead) AS shown
       GROUP BY 1, 2 ORDER BY 1, 2`),
  );
  const kept = (
    await db
      .select({
        year: archiveCounts.year,
        category: archiveCounts.category,
        n: archiveCounts.articles,
      })
      .from(archiveCounts)
      .where(sql`${archiveCounts.articles} <> 0`)
      .orderBy(archiveCounts.year, archiveCounts.category)
  ).map((row) => ({ ...row }));
  return { kept, counted };
}
