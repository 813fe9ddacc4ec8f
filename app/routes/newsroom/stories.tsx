import { data, Form, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { DONE, isStoryIntent, runStoryAction } from "../../../server/newsroom/story-form";
import { listPins, listStories, STORIES_PAGE_SIZE } from "../../../server/newsroom/stories";
import { STORY_STATUS_LABELS, STORY_STATUSES, type StoryStatus } from "../../../shared/newsroom";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { CATEGORIES, categoryByKey, isCategoryKey } from "../../../shared/categories";
import {
  BUTTON,
  FIELD,
  formatStaffTime,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "../../components/NewsroomNotice";
import { CsrfField } from "./layout";
import type { Route } from "./+types/stories";
import { newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Stories");

const isStatus = (value: string | null): value is StoryStatus =>
  (STORY_STATUSES as readonly (string | null)[]).includes(value);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").slice(0, 200);
  const categoryParam = url.searchParams.get("category") ?? "";
  const category = isCategoryKey(categoryParam) ? categoryParam : null;
  const statusParam = url.searchParams.get("status");
  const status = isStatus(statusParam) ? statusParam : "all";
  const page = Math.min(1000, Math.max(1, Number(url.searchParams.get("page")) || 1));
  const [list, pins] = await Promise.all([
    listStories(context.db, { query, category, status, page }),
    listPins(context.db),
  ]);
  const done = url.searchParams.get("done");
  return {
    query,
    category,
    status,
    page,
    pages: Math.max(1, Math.ceil(list.total / STORIES_PAGE_SIZE)),
    ...list,
    pins,
    done: isStoryIntent(done) ? DONE[done] : null,
  };
}

/** The pins' own buttons (reorder, unpin); a story's other actions are on its page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  if (intent !== "pin-up" && intent !== "pin-down" && intent !== "unpin") {
    throw data("Unknown action.", { status: 400 });
  }
  const result = await runStoryAction(context, session.member, intent, id, form);
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect(`/newsroom/stories?done=${intent}`, 303);
}

function pageLink(
  params: { query: string; category: string | null; status: string },
  page: number,
) {
  const search = new URLSearchParams();
  if (params.query) search.set("q", params.query);
  if (params.category) search.set("category", params.category);
  if (params.status !== "all") search.set("status", params.status);
  if (page > 1) search.set("page", String(page));
  const text = search.toString();
  return `/newsroom/stories${text ? `?${text}` : ""}`;
}

export default function Stories({ loaderData, actionData }: Route.ComponentProps) {
  const { stories, total, pins, query, category, status, page, pages, done } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Stories</h1>
      <NewsroomNotice done={done} error={actionData?.error} />

      <section aria-labelledby="pins-heading">
        <h2 id="pins-heading" className="text-xl font-bold">
          Pinned to the home page
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          First in the slider and Today&apos;s Headlines, in this order, until each pin expires. Pin
          a story from its page.
        </p>
        {pins.length === 0 ? (
          <p className="mt-2">No story is pinned.</p>
        ) : (
          <ol className="mt-3 divide-y divide-slate-200 rounded ring-1 ring-slate-200">
            {pins.map((p, index) => (
              <li key={p.id} className="flex flex-wrap items-center gap-3 p-3">
                <span className="font-bold">{index + 1}.</span>
                <span className="min-w-0 flex-1 basis-56">
                  <Link to={`/newsroom/stories/${p.id}`} className="font-semibold underline">
                    {p.title}
                  </Link>
                  <span className="block text-sm text-slate-700">
                    Until {formatStaffTime(p.expiresAt)}
                    {p.down ? " · taken down: not shown" : ""}
                  </span>
                </span>
                <Form method="post" className="flex flex-wrap gap-2">
                  <CsrfField />
                  <input type="hidden" name="id" value={p.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="pin-up"
                    className={BUTTON}
                    disabled={index === 0}
                    aria-label={`Up: ${p.title}`}
                  >
                    Up
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="pin-down"
                    className={BUTTON}
                    disabled={index === pins.length - 1}
                    aria-label={`Down: ${p.title}`}
                  >
                    Down
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="unpin"
                    className={BUTTON}
                    aria-label={`Unpin: ${p.title}`}
                  >
                    Unpin
                  </button>
                </Form>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="find-heading">
        <h2 id="find-heading" className="text-xl font-bold">
          Find a story
        </h2>
        <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
          <label className="flex min-w-0 flex-1 basis-60 flex-col gap-1 font-semibold">
            Headline, id or link
            <input type="search" name="q" defaultValue={query} className={FIELD} />
          </label>
          <label className="flex flex-col gap-1 font-semibold">
            Category
            <select name="category" defaultValue={category ?? ""} className={FIELD}>
              <option value="">All categories</option>
              {CATEGORIES.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 font-semibold">
            Status
            <select name="status" defaultValue={status} className={FIELD}>
              {STORY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STORY_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={PRIMARY_BUTTON}>
            Show
          </button>
        </Form>
      </section>

      <section aria-labelledby="list-heading">
        <h2 id="list-heading" className="text-xl font-bold">
          {total} {total === 1 ? "story" : "stories"}
        </h2>
        <ul className="mt-3 divide-y divide-slate-200 rounded ring-1 ring-slate-200">
          {stories.map((s) => (
            <li key={s.id} className="p-3">
              <Link
                to={`/newsroom/stories/${s.id}`}
                className="font-semibold break-words underline"
              >
                {s.title}
              </Link>
              {s.feedTitle !== null ? (
                <span className="block text-sm break-words text-slate-700">
                  Feed&apos;s headline: {s.feedTitle}
                </span>
              ) : null}
              <span className="mt-1 flex flex-wrap gap-x-3 text-sm text-slate-700">
                <span>{categoryByKey(s.category).name}</span>
                <time dateTime={s.publishedAt}>{formatStaffTime(s.publishedAt)}</time>
                {s.down ? (
                  <span className="rounded bg-red-100 px-1 font-semibold text-red-900">
                    Taken down
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
        {pages > 1 ? (
          <nav aria-label="Pages of stories" className="mt-4 flex items-center gap-4">
            {page > 1 ? (
              <Link to={pageLink(loaderData, page - 1)} className="underline">
                Newer
              </Link>
            ) : null}
            <span>
              Page {page} of {pages}
            </span>
            {page < pages ? (
              <Link to={pageLink(loaderData, page + 1)} className="underline">
                Older
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
