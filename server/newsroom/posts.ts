import { and, desc, eq, lte } from "drizzle-orm";
import { EMPTY_POST_FIELDS, type PostFields, type PostKind } from "../../shared/post-fields";
import { sanDiegoFormat } from "../../shared/san-diego-time";
import type { Database } from "../db/client";
import { newsroomPosts, newsroomRevisions, staff } from "../db/schema";
import { recordAudit } from "../staff/audit";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { publishProblems } from "./post-form";
import { goLive, mediaPicture, takeOffSite } from "./post-live";

/**
 * The newsroom's own stories and blog posts (decision 028): drafts saved as often as the writer
 * works, each save a revision; publishing copies the draft to the live copy readers see
 * (post-live.ts), at once or at a scheduled time; unpublishing takes it off the site. A story goes
 * live as an `articles` row, so every list, feed, sitemap and the digest show it as they show a
 * feed story; a blog post is listed beside the configured blog source's posts.
 */

export type PostRow = typeof newsroomPosts.$inferSelect;
type Services = NewsroomServices & { siteUrl: string };

/** Autosaves by one writer within this long of the last are one revision, kept up to date. */
const AUTOSAVE_REVISION_MS = 10 * 60_000;

const NO_POST = "There is no such story or post.";

async function lockedPost(tx: Database, id: number): Promise<PostRow | undefined> {
  const [row] = await tx.select().from(newsroomPosts).where(eq(newsroomPosts.id, id)).for("update");
  return row;
}

async function addRevision(
  tx: Database,
  actor: { id: number | null; email: string },
  postId: number,
  fields: PostFields,
  kind: "save" | "autosave" | "publish" | "restore",
  now: Date,
) {
  if (kind === "autosave") {
    const [last] = await tx
      .select()
      .from(newsroomRevisions)
      .where(eq(newsroomRevisions.postId, postId))
      .orderBy(desc(newsroomRevisions.id))
      .limit(1);
    if (
      last?.kind === "autosave" &&
      last.staffId === actor.id &&
      now.getTime() - last.createdAt.getTime() < AUTOSAVE_REVISION_MS
    ) {
      await tx
        .update(newsroomRevisions)
        .set({ fields, createdAt: now })
        .where(eq(newsroomRevisions.id, last.id));
      return;
    }
  }
  await tx.insert(newsroomRevisions).values({
    postId,
    fields,
    kind,
    staffId: actor.id,
    staffEmail: actor.email,
    createdAt: now,
  });
}

/** A new, empty draft; answers its id. */
export async function createPost(
  services: NewsroomServices,
  actor: Actor,
  kind: PostKind,
  now = new Date(),
): Promise<number> {
  return services.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(newsroomPosts)
      .values({
        kind,
        draft: EMPTY_POST_FIELDS,
        createdBy: actor.email,
        updatedBy: actor.email,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: newsroomPosts.id });
    if (!row) throw new Error("The new post was not saved.");
    await addRevision(tx, actor, row.id, EMPTY_POST_FIELDS, "save", now);
    await recordAudit(tx, actor, { action: `${kind}.create`, subject: `post:${row.id}` });
    return row.id;
  });
}

/**
 * Saves the working copy (never what readers see) and a revision of it. A blog post's address is
 * kept as asked for until it is first published, then fixed.
 */
export function saveDraft(
  services: NewsroomServices,
  actor: Actor,
  id: number,
  input: { fields: PostFields; slug: string; autosave?: boolean },
  now = new Date(),
): Promise<ActionResult> {
  return services.db.transaction(async (tx) => {
    const post = await lockedPost(tx, id);
    if (!post) return fail(NO_POST);
    const slug = await slugChange(tx, post, input.slug);
    if (slug !== null && typeof slug === "object") return slug;
    await tx
      .update(newsroomPosts)
      .set({ draft: input.fields, slug, updatedBy: actor.email, updatedAt: now })
      .where(eq(newsroomPosts.id, id));
    await addRevision(tx, actor, id, input.fields, input.autosave ? "autosave" : "save", now);
    const pending = post.status === "published" ? " Readers see the published version." : "";
    return { ok: true, message: `Saved at ${timeOfDay(now)}.${pending}` };
  });
}

/** The slug to store, or why the one asked for cannot be had. */
async function slugChange(
  tx: Database,
  post: PostRow,
  asked: string,
): Promise<string | null | ActionResult> {
  if (post.kind !== "blog" || post.firstPublishedAt) return post.slug;
  if (asked === "" || asked === post.slug) return asked === "" ? post.slug : asked;
  const [taken] = await tx
    .select({ id: newsroomPosts.id })
    .from(newsroomPosts)
    .where(eq(newsroomPosts.slug, asked))
    .limit(1);
  return taken ? fail("Another post has that address: choose another.") : asked;
}

const timeOfDay = (at: Date) => sanDiegoFormat({ hour: "numeric", minute: "2-digit" }).format(at);

/**
 * Publishes the saved draft now, or schedules it for `at` (a later time). What it still needs
 * (publishProblems) is said and nothing changes.
 */
export function publishPost(
  services: Services,
  actor: Actor,
  id: number,
  at: Date | null,
  now = new Date(),
): Promise<ActionResult> {
  return act(services, async (tx) => {
    const post = await lockedPost(tx, id);
    if (!post) return fail(NO_POST);
    const problems = Object.values(publishProblems(post.kind as PostKind, post.draft));
    if (problems.length > 0) return fail(`Not published yet: ${problems.join(" ")}`);
    if (post.draft.mediaId !== null && !(await mediaPicture(tx, post.draft.mediaId))) {
      return fail("The chosen picture is no longer in the library: choose another.");
    }
    if (at && at.getTime() > now.getTime()) {
      await tx
        .update(newsroomPosts)
        .set({ status: "scheduled", publishAt: at, updatedBy: actor.email, updatedAt: now })
        .where(eq(newsroomPosts.id, id));
      return audited(tx, actor, "Scheduled.", null, {
        action: `${post.kind}.schedule`,
        subject: `post:${id}`,
        before: { status: post.status },
        after: { status: "scheduled", at: at.toISOString() },
      });
    }
    const purge = await goLive(tx, services.siteUrl, post, now);
    await addRevision(tx, actor, id, post.draft, "publish", now);
    const message = post.status === "published" ? "Updated on the site." : "Published.";
    return audited(tx, actor, message, purge, {
      action: `${post.kind}.publish`,
      subject: `post:${id}`,
      before: { status: post.status },
      after: { status: "published", title: post.draft.title },
    });
  });
}

/** Takes a published or scheduled post off the site (its draft and revisions stay). */
export function unpublishPost(
  services: NewsroomServices,
  actor: Actor,
  id: number,
  now = new Date(),
): Promise<ActionResult> {
  return act(services, async (tx) => {
    const post = await lockedPost(tx, id);
    if (!post) return fail(NO_POST);
    if (post.status !== "published" && post.status !== "scheduled") {
      return fail("It is not published or scheduled.");
    }
    const purge = post.status === "published" ? await takeOffSite(tx, post, now) : [];
    await tx
      .update(newsroomPosts)
      .set({ status: "unpublished", publishAt: null, updatedBy: actor.email, updatedAt: now })
      .where(eq(newsroomPosts.id, id));
    const message = post.status === "scheduled" ? "No longer scheduled." : "Taken off the site.";
    return audited(tx, actor, message, purge, {
      action: `${post.kind}.unpublish`,
      subject: `post:${id}`,
      before: { status: post.status },
      after: { status: "unpublished" },
    });
  });
}

/**
 * Publishes every scheduled post whose time has come; answers how many, and the keys of the pages
 * that changed (shared/cache-keys.ts). Safe to run from several processes and machines at once:
 * each due row is taken by one (SKIP LOCKED).
 */
export async function publishDuePosts(
  db: Database,
  siteUrl: string,
  now = new Date(),
): Promise<{ published: number; purge: string[] }> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(newsroomPosts)
      .where(and(eq(newsroomPosts.status, "scheduled"), lte(newsroomPosts.publishAt, now)))
      .orderBy(newsroomPosts.publishAt)
      .limit(50)
      .for("update", { skipLocked: true });
    const purge = new Set<string>();
    for (const post of due) {
      (await goLive(tx, siteUrl, post, now)).forEach((key) => purge.add(key));
      // Recorded as the act of whoever scheduled it (the post's last writer), at its time.
      const [member] = await tx
        .select({ id: staff.id })
        .from(staff)
        .where(eq(staff.email, post.updatedBy));
      const scheduler = { id: member?.id ?? null, email: post.updatedBy };
      await addRevision(tx, scheduler, post.id, post.draft, "publish", now);
      await recordAudit(tx, scheduler, {
        action: `${post.kind}.publish`,
        subject: `post:${post.id}`,
        before: { status: "scheduled" },
        after: { status: "published", title: post.draft.title, scheduled: true },
        at: now,
      });
    }
    return { published: due.length, purge: [...purge] };
  });
}

/** Makes an earlier revision the draft again (as a new revision); readers see it once published. */
export function restoreRevision(
  services: NewsroomServices,
  actor: Actor,
  postId: number,
  revisionId: number,
  now = new Date(),
): Promise<ActionResult> {
  return act(services, async (tx) => {
    const post = await lockedPost(tx, postId);
    if (!post) return fail(NO_POST);
    const [revision] = await tx
      .select()
      .from(newsroomRevisions)
      .where(and(eq(newsroomRevisions.postId, postId), eq(newsroomRevisions.id, revisionId)));
    if (!revision) return fail("There is no such revision of this post.");
    await tx
      .update(newsroomPosts)
      .set({ draft: revision.fields, updatedBy: actor.email, updatedAt: now })
      .where(eq(newsroomPosts.id, postId));
    await addRevision(tx, actor, postId, revision.fields, "restore", now);
    const live = post.status === "published" ? " Publish it to show it to readers." : "";
    return audited(tx, actor, `The revision is the draft again.${live}`, null, {
      action: `${post.kind}.restore-revision`,
      subject: `post:${postId}`,
      after: { revision: revisionId },
    });
  });
}
