import { randomUUID } from "node:crypto";
import { and, inArray, isNotNull, sql } from "drizzle-orm";
import { lockForTransaction, rowsOf, type Database } from "../db/client";
import { articles, storyGroups } from "../db/schema";
import { KeptFeatures } from "./kept-features";
import {
  chooseGroup,
  comparable,
  fitsGroup,
  matchFeatures,
  scorePair,
  wordWeights,
  MATCH_WINDOW_HOURS,
  type GroupCandidate,
  type MatchFeatures,
} from "./match";

/**
 * Story groups in the database (issue #36, decision 032): formed at ingest from the pass's new
 * articles (groupNewArticles), kept right after every change (settleGroups): the lead of each group
 * and of each category within it, and every version's "also covered by". Lists read the flags
 * `group_lead` and `category_lead`; nothing is computed when a page is read.
 */

/** The first key of the advisory lock every change to story groups holds (lockGroups). */
export const GROUPS_LOCK_CLASS = 7_302_118;

/**
 * Takes the story groups' lock for the rest of the transaction `tx`, before it reads a group: an
 * ingest pass grouping its new stories and staff splitting, joining, choosing a lead or taking a
 * story down then run one at a time on PostgreSQL (PGlite runs one transaction at a time anyway).
 * Without it a pass could group a story from what it read before staff's change committed: undo a
 * join, leave a group with a lead outside it, or fail on a group staff's split had removed. Taking
 * it again in the same transaction is harmless.
 */
export function lockGroups(tx: Pick<Database, "execute">): Promise<void> {
  return lockForTransaction(tx, GROUPS_LOCK_CLASS, "groups");
}

/** The most recent articles read around a pass's new ones: a bounded read whatever the archive. */
const WINDOW_LIMIT = 5_000;

/** How long before a pass's new stories the stories they are matched with may have come in. */
export const SEEN_WINDOW_HOURS = 2 * MATCH_WINDOW_HOURS;

/** A story whose group changed, for the cache keys of its pages. */
export interface ChangedStory {
  id: string;
  category: string;
}

interface WindowRow {
  id: string;
  feed_id: number;
  title: string;
  excerpt: string;
  published_at: Date | string;
  category: string;
  story_group: string | null;
}

interface Version {
  row: WindowRow;
  features: MatchFeatures;
  group: string | null;
}

/**
 * Matches each of `ids` (articles just stored) against the recent articles of other feeds and puts
 * it in the group of its best match (decision 029), or starts a group with it. Own stories, stories
 * taken down, stories staff split off (`alone`) and stories already grouped are left as they are, so
 * re-reading a feed changes nothing staff decided. Run it in a transaction: it takes the groups'
 * lock (lockGroups) before it reads. Returns the stories whose lists or pages changed.
 */
export async function groupNewArticles(
  db: Database,
  ids: readonly string[],
): Promise<ChangedStory[]> {
  if (ids.length === 0) return [];
  await lockGroups(db);
  const window = await readWindow(db, ids);
  const fresh = ids
    .map((id) => window.get(id))
    .filter((v): v is Version => v !== undefined && v.group === null)
    .sort((a, b) => a.features.time - b.features.time || a.row.id.localeCompare(b.row.id));
  if (fresh.length === 0) return [];

  const versions = [...window.values()];
  const weight = wordWeights(versions.map((v) => v.features));
  // Which versions hold each word: a pair needs two shared words to score at all (scorePair).
  const holding = new Map<string, Version[]>();
  for (const v of versions) {
    for (const word of v.features.openingWords) {
      const list = holding.get(word);
      if (list) list.push(v);
      else holding.set(word, [v]);
    }
  }

  // The versions of each group, for fitsGroup; kept up to date as versions join below.
  const members = new Map<string, MatchFeatures[]>();
  for (const v of versions) {
    if (v.group === null) continue;
    const list = members.get(v.group);
    if (list) list.push(v.features);
    else members.set(v.group, [v.features]);
  }

  /** Each group begun in this pass, with the version it began with (its lead until settled). */
  const created = new Map<string, string>();
  const joined = new Map<string, string>();
  for (const version of fresh) {
    if (version.group !== null) continue;
    const shared = new Map<Version, number>();
    for (const word of version.features.openingWords) {
      for (const other of holding.get(word) ?? []) {
        if (other !== version) shared.set(other, (shared.get(other) ?? 0) + 1);
      }
    }
    const candidates: (GroupCandidate & { version: Version })[] = [];
    for (const [other, count] of shared) {
      if (count < 2 || !comparable(version.features, other.features)) continue;
      const { score } = scorePair(version.features, other.features, weight);
      candidates.push({ group: other.group ?? `alone:${other.row.id}`, score, version: other });
    }
    const chosen = chooseGroup(candidates, undefined, (group) =>
      fitsGroup(version.features, members.get(group) ?? [], weight),
    );
    if (chosen === null) continue;
    let group = chosen;
    if (chosen.startsWith("alone:")) {
      const other = candidates.find((c) => c.group === chosen)?.version;
      if (!other) continue;
      group = randomUUID();
      created.set(group, other.row.id);
      other.group = group;
      joined.set(other.row.id, group);
      members.set(group, [other.features]);
    }
    version.group = group;
    joined.set(version.row.id, group);
    members.get(group)?.push(version.features);
  }
  if (joined.size === 0) return [];

  // A few statements whatever the number of groups: one per group cost a first pass of 30 feeds
  // carrying the same 20 stories 400 statements (bench:ingest, decision 032).
  for (const rows of chunked([...created], WRITE_CHUNK)) {
    // The lead is settled below; the founding version holds the place until then.
    await db.insert(storyGroups).values(rows.map(([id, leadId]) => ({ id, leadId })));
  }
  for (const rows of chunked([...joined], WRITE_CHUNK)) {
    const values = sql.join(
      rows.map(([id, group]) => sql`(${id}, ${group})`),
      sql`, `,
    );
    await db.execute(sql`
      UPDATE ${articles} a SET story_group = v.story_group
        FROM (VALUES ${values}) AS v(id, story_group)
       WHERE a.id = v.id`);
  }
  return settleGroups(db, [...new Set(joined.values())]);
}

/** Rows written per statement: two parameters each, far below PostgreSQL's 65,535. */
const WRITE_CHUNK = 1_000;

function* chunked<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * The live feed stories around `ids` (by date), with what matching compares, by id. Only stories
 * first seen in the SEEN_WINDOW_HOURS before the new ones are read: the recent news a new story can
 * be told beside. A feed that brings items dated years back is matched among what came lately, not
 * against the archive of those years, so what one pass reads depends on how much news arrives, not
 * on how much is kept (bench:growth).
 */
async function readWindow(db: Database, ids: readonly string[]): Promise<Map<string, Version>> {
  const hours = `${MATCH_WINDOW_HOURS} hours`;
  const seen = `${SEEN_WINDOW_HOURS} hours`;
  // The bounds first, then the read with them as values: bounds computed inside the read are
  // unknown when it is planned, and PostgreSQL walked the whole date index (2.1 s at 473,081
  // stories against 20 ms; decision 032).
  const [span] = rowsOf<{
    since: Date | string | null;
    until: Date | string | null;
    seen_since: Date | string | null;
  }>(
    await db.execute(sql`
      SELECT min(published_at) - ${hours}::interval AS since,
             max(published_at) + ${hours}::interval AS until,
             min(first_seen_at) - ${seen}::interval AS seen_since
        FROM ${articles} WHERE id IN ${ids}`),
  );
  if (!span?.since || !span.until || !span.seen_since) return new Map();
  const result = await db.execute(sql`
    SELECT a.id, a.feed_id, coalesce(a.feed_title, a.title) AS title, a.excerpt, a.published_at,
           a.category, a.story_group
      FROM ${articles} a
     WHERE a.taken_down_at IS NULL AND NOT a.own AND a.feed_id IS NOT NULL
       AND a.published_at >= ${new Date(span.since)} AND a.published_at <= ${new Date(span.until)}
       AND a.first_seen_at >= ${new Date(span.seen_since)}
       AND NOT EXISTS (SELECT 1 FROM story_group_overrides o
                        WHERE o.article_id = a.id AND o.decision = 'alone')
     ORDER BY a.published_at DESC
     LIMIT ${WINDOW_LIMIT}`);
  const rows = rowsOf<WindowRow>(result);
  const features = keptFeatures.read(
    rows.map((row) => ({
      id: row.id,
      feedId: row.feed_id,
      title: row.title,
      excerpt: row.excerpt,
      time: new Date(row.published_at).getTime(),
    })),
  );
  const window = new Map<string, Version>();
  for (const row of rows) {
    const found = features.get(row.id);
    if (found) window.set(row.id, { row, features: found, group: row.story_group });
  }
  return window;
}

/** The features of the window read last, kept for the next pass of this process (the scheduler's). */
const keptFeatures = new KeptFeatures((source) =>
  matchFeatures({
    feedId: source.feedId,
    title: source.title,
    excerpt: source.excerpt,
    publishedAt: new Date(source.time),
  }),
);

/** The host a version came from, as the article page names its outlet ("www." left off). */
const hostOf = (link: string) =>
  sql.raw(
    `regexp_replace(lower(substring(${link} from '^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#@]+)')), '^www\\.', '')`,
  );

/**
 * Puts `groups` right after a change: a group with fewer than two versions on the site is dissolved;
 * the lead is staff's choice while it is on the site, else the earliest version; in each category
 * the group's lead or else its earliest version there leads; every version lists the other outlets.
 * Returns the versions whose flags or outlets changed (and those of dissolved groups). The caller
 * holds the groups' lock (lockGroups) since before it read the groups it changed.
 */
export async function settleGroups(
  db: Database,
  groups: readonly string[],
): Promise<ChangedStory[]> {
  if (groups.length === 0) return [];
  const changed: ChangedStory[] = [];
  const dissolved = await db.execute(sql`
    UPDATE ${articles} SET story_group = NULL, group_lead = true, category_lead = true,
           also_covered_by = NULL
     WHERE story_group IN (
       SELECT g.id FROM ${storyGroups} g
        WHERE g.id IN ${groups}
          AND (SELECT count(*) FROM ${articles} m
                WHERE m.story_group = g.id AND m.taken_down_at IS NULL) < 2)
    RETURNING id, category`);
  changed.push(...rowsOf<ChangedStory>(dissolved));
  await db.execute(sql`
    DELETE FROM ${storyGroups} g
     WHERE g.id IN ${groups}
       AND NOT EXISTS (SELECT 1 FROM ${articles} m WHERE m.story_group = g.id)`);
  await db.execute(sql`
    UPDATE ${storyGroups} g SET lead_by_staff = false
     WHERE g.id IN ${groups} AND g.lead_by_staff
       AND NOT EXISTS (SELECT 1 FROM ${articles} m
                        WHERE m.id = g.lead_id AND m.story_group = g.id AND m.taken_down_at IS NULL)`);
  await db.execute(sql`
    UPDATE ${storyGroups} g SET updated_at = now(),
           lead_id = (SELECT m.id FROM ${articles} m
                       WHERE m.story_group = g.id AND m.taken_down_at IS NULL
                       ORDER BY m.published_at, m.id LIMIT 1)
     WHERE g.id IN ${groups} AND NOT g.lead_by_staff`);
  const settled = await db.execute(sql`
    WITH versions AS (
      SELECT a.id, a.story_group, (a.id = g.lead_id) AS group_lead,
             row_number() OVER (PARTITION BY a.story_group, a.category
                                ORDER BY (a.id = g.lead_id) DESC, a.published_at, a.id) = 1
               AS category_lead,
             array(SELECT s.host FROM (
                     SELECT ${hostOf("o.link")} AS host, min(o.published_at) AS since
                       FROM ${articles} o
                      WHERE o.story_group = a.story_group AND o.id <> a.id
                        AND o.taken_down_at IS NULL
                      GROUP BY 1) s
                    WHERE s.host IS NOT NULL AND s.host <> coalesce(${hostOf("a.link")}, '')
                    ORDER BY s.since, s.host) AS outlets
        FROM ${articles} a JOIN ${storyGroups} g ON g.id = a.story_group
       WHERE a.story_group IN ${groups} AND a.taken_down_at IS NULL
    )
    UPDATE ${articles} a SET group_lead = v.group_lead, category_lead = v.category_lead,
           also_covered_by = v.outlets
      FROM versions v
     WHERE a.id = v.id
       AND (a.group_lead IS DISTINCT FROM v.group_lead
            OR a.category_lead IS DISTINCT FROM v.category_lead
            OR a.also_covered_by IS DISTINCT FROM v.outlets)
    RETURNING a.id, a.category`);
  changed.push(...rowsOf<ChangedStory>(settled));
  return changed;
}

/**
 * Takes `ids` out of their groups (a take-down, a split): each stands alone again, and what is left
 * of its group is settled. Returns the stories whose lists or pages changed. The caller holds the
 * groups' lock (lockGroups) since before it read the stories.
 */
export async function leaveGroups(db: Database, ids: readonly string[]): Promise<ChangedStory[]> {
  if (ids.length === 0) return [];
  const inGroups = await db
    .select({ group: articles.storyGroup })
    .from(articles)
    .where(and(inArray(articles.id, [...ids]), isNotNull(articles.storyGroup)));
  if (inGroups.length === 0) return [];
  const left = await db
    .update(articles)
    .set({ storyGroup: null, groupLead: true, categoryLead: true, alsoCoveredBy: null })
    .where(inArray(articles.id, [...ids]))
    .returning({ id: articles.id, category: articles.category });
  const groups = [...new Set(inGroups.flatMap((row) => (row.group ? [row.group] : [])))];
  return [...left, ...(await settleGroups(db, groups))];
}
