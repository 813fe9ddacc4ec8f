import { data, Form, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { newPostKind } from "../../../server/newsroom/forms";
import { listPosts, POSTS_PAGE_SIZE } from "../../../server/newsroom/post-reads";
import { createPost } from "../../../server/newsroom/posts";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import {
  POST_KINDS,
  POST_STATUSES,
  type PostKind,
  type PostStatus,
} from "../../../shared/post-fields";
import { BUTTON, Field, formatStaffTime, PRIMARY_BUTTON } from "../../components/NewsroomNotice";
import { PageLinks } from "../../components/PageLinks";
import { addressWith, newsroomMeta } from "../../lib/newsroom-meta";
import { NewsroomForm } from "./layout";
import type { Route } from "./+types/posts";

export const meta: Route.MetaFunction = newsroomMeta("Writing");

const KIND_NAMES: Record<PostKind, string> = { story: "Story", blog: "Blog post" };
const STATUS_NAMES: Record<PostStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.find((item) => item === value);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const kind = oneOf(POST_KINDS, params.get("kind"));
  const status = oneOf(POST_STATUSES, params.get("status"));
  const page = Math.min(10_000, Math.max(1, Number(params.get("page")) || 1));
  const { posts, total } = await listPosts(context.db, { kind, status, page });
  return {
    posts: posts.map((p) => ({
      ...p,
      updatedAt: p.updatedAt.toISOString(),
      publishAt: p.publishAt?.toISOString() ?? null,
    })),
    total,
    page,
    pages: Math.max(1, Math.ceil(total / POSTS_PAGE_SIZE)),
    kind: kind ?? "",
    status: status ?? "",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const kind = newPostKind.safeParse(form.get("kind"));
  if (!kind.success) throw data("Unknown kind of post.", { status: 400 });
  const id = await createPost(context, session.member, kind.data);
  throw redirect(`/newsroom/posts/${id}?done=created`, 303);
}

export default function Posts({ loaderData }: Route.ComponentProps) {
  const { posts, total, page, pages, kind, status } = loaderData;
  const pageLink = (n: number) =>
    addressWith("/newsroom/posts", { kind, status, page: n > 1 && n });
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Writing</h1>
      <p className="text-slate-700">
        The publication&apos;s own stories and blog posts. A draft is never public; publish it now
        or schedule it.
      </p>
      <NewsroomForm className="flex flex-wrap gap-2">
        <button type="submit" name="kind" value="story" className={PRIMARY_BUTTON}>
          New story
        </button>
        <button type="submit" name="kind" value="blog" className={BUTTON}>
          New blog post
        </button>
      </NewsroomForm>
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter">
        <Field
          label="Kind"
          name="kind"
          defaultValue={kind}
          options={[["", "All"], ...POST_KINDS.map((k) => [k, KIND_NAMES[k]] as const)]}
        />
        <Field
          label="Status"
          name="status"
          defaultValue={status}
          options={[["", "All"], ...POST_STATUSES.map((s) => [s, STATUS_NAMES[s]] as const)]}
        />
        <button type="submit" className={BUTTON}>
          Show
        </button>
      </Form>
      <p className="text-sm text-slate-700">
        {total === 1 ? "1 story or post" : `${total} stories and posts`}
      </p>
      {posts.length === 0 ? (
        <p>Nothing here yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded ring-1 ring-slate-200">
          {posts.map((p) => (
            <li key={p.id} className="flex flex-col gap-1 p-3">
              <p className="flex flex-wrap items-baseline gap-2">
                <Link
                  to={`/newsroom/posts/${p.id}`}
                  className="font-semibold break-words text-brand underline"
                >
                  {p.title || "(no headline yet)"}
                </Link>
                <span className="rounded bg-slate-100 px-2 text-xs">{KIND_NAMES[p.kind]}</span>
                <span className="rounded bg-slate-100 px-2 text-xs">{STATUS_NAMES[p.status]}</span>
              </p>
              <p className="text-xs text-slate-600">
                {p.status === "scheduled" && p.publishAt
                  ? `Goes on the site ${formatStaffTime(p.publishAt)} (San Diego time). `
                  : null}
                Last saved {formatStaffTime(p.updatedAt)} by {p.updatedBy}.
                {p.siteLink ? (
                  <>
                    {" "}
                    <Link to={p.siteLink} className="text-brand underline">
                      View on the site
                    </Link>
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
      <PageLinks
        label="Pages"
        page={page}
        pages={pages}
        href={pageLink}
        previous="Newer"
        next="Older"
        className="flex gap-4"
      />
    </div>
  );
}
