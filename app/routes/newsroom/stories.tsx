import { data, Form, Link, redirect, useLocation } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { readAction, typedText } from "../../../server/newsroom/form-input";
import {
  DONE,
  isStoryIntent,
  runStoryAction,
  storyListAction,
  type StoryIntent,
} from "../../../server/newsroom/story-form";
import { listPins } from "../../../server/newsroom/pins";
import { listStories, STORIES_PAGE_SIZE } from "../../../server/newsroom/story-reads";
import { STORY_STATUS_LABELS, STORY_STATUSES, type StoryStatus } from "../../../shared/newsroom";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { CATEGORIES, categoryByKey, isCategoryKey } from "../../../shared/categories";
import { ArticleImage } from "../../components/ArticleImage";
import { PageLinks } from "../../components/PageLinks";
import type { PictureSlot } from "../../components/picture-slots";
import {
  BUTTON,
  Field,
  formatStaffTime,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "../../components/NewsroomNotice";
import { PinHoursSelect } from "../../components/PinHoursSelect";
import { StoryTextAction } from "../../components/StoryTextAction";
import { CsrfField, NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/stories";
import { addressWith, newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Stories");

const isStatus = (value: string | null): value is StoryStatus =>
  (STORY_STATUSES as readonly (string | null)[]).includes(value);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const url = new URL(request.url);
  const list = listParams(url.searchParams);
  const [found, pins] = await Promise.all([listStories(context.db, list), listPins(context.db)]);
  const done = url.searchParams.get("done");
  return {
    ...list,
    // The search as it ran (control characters, a NUL among them, read as spaces).
    query: found.query,
    pages: Math.max(1, Math.ceil(found.total / STORIES_PAGE_SIZE)),
    stories: found.stories,
    total: found.total,
    pins,
    done: isStoryIntent(done) ? DONE[done] : null,
  };
}

/** The list's search, category, status and page, from the address or from a row's form. */
function listParams(params: { get(name: string): string | File | null }) {
  const value = (name: string) => {
    const v = params.get(name);
    return typeof v === "string" ? v : "";
  };
  const status = value("status");
  const category = value("category");
  return {
    query: value("q").slice(0, 200),
    category: isCategoryKey(category) ? category : null,
    status: isStatus(status) ? status : ("all" as const),
    page: Math.min(1000, Math.max(1, Math.floor(Number(value("page"))) || 1)),
  };
}

type ListState = ReturnType<typeof listParams>;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const read = readAction(storyListAction, form);
  const id = typedText(form, "id");
  if (!read.ok) return data({ error: read.error, id }, { status: 400 });
  const result = await runStoryAction(context, session.member, read.data, id);
  if (!result.ok) return data({ error: result.error, id }, { status: 400 });
  const list = listParams(form);
  throw redirect(listAddress(list, list.page, read.data.intent), 303);
}

/** The list's address for a search and page, with what was just done. */
function listAddress(params: ListState, page: number, done?: StoryIntent) {
  const { query: q, category, status } = params;
  const values = { q, category, status: status !== "all" && status, page: page > 1 && page };
  return addressWith("/newsroom/stories", { ...values, done });
}

/** The list's search and page, carried by each row's form so the answer comes back to them. */
function ListFields({ list }: { list: ListState }) {
  return (
    <>
      <input type="hidden" name="q" value={list.query} />
      <input type="hidden" name="category" value={list.category ?? ""} />
      <input type="hidden" name="status" value={list.status} />
      <input type="hidden" name="page" value={list.page} />
    </>
  );
}

/** Thumbnails in the list: 6rem wide, 16:9. */
const THUMBNAIL_SLOT: PictureSlot = { sizes: "6rem", maxWidth: 96, shape: "wide" };

export default function Stories({ loaderData, actionData }: Route.ComponentProps) {
  const { stories, total, pins, query, category, status, page, pages, done } = loaderData;
  const list = { query, category, status, page };
  const pinned = new Set(pins.map((p) => p.id));
  const { key } = useLocation();
  // A row's failed action is told in that row, any other at the top.
  const failedRow =
    actionData && stories.some((s) => s.id === actionData.id) ? actionData.id : null;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Stories</h1>
      <NewsroomNotice done={done} error={failedRow === null ? actionData?.error : null} />

      <Panel id="pins-heading" title="Pinned to the home page">
        <p className="mt-1 text-sm text-slate-700">
          First in the slider and Today&apos;s Headlines, in this order, until each pin expires. Pin
          a story from its actions in the list below or from its page.
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
                <NewsroomForm className="flex flex-wrap gap-2">
                  <input type="hidden" name="id" value={p.id} />
                  {(
                    [
                      ["pin-up", "Up", index === 0],
                      ["pin-down", "Down", index === pins.length - 1],
                      ["unpin", "Unpin", false],
                    ] as const
                  ).map(([intent, word, disabled]) => (
                    <button
                      key={intent}
                      type="submit"
                      name="intent"
                      value={intent}
                      className={BUTTON}
                      disabled={disabled}
                      aria-label={`${word}: ${p.title}`}
                    >
                      {word}
                    </button>
                  ))}
                </NewsroomForm>
              </li>
            ))}
          </ol>
        )}
      </Panel>

      <Panel id="find-heading" title="Find a story">
        <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
          <Field
            label="Words (as readers' search finds them), an id or a link"
            labelClassName="flex min-w-0 flex-1 basis-60 flex-col gap-1 font-semibold"
            type="search"
            name="q"
            defaultValue={query}
          />
          <Field
            label="Category"
            name="category"
            defaultValue={category ?? ""}
            options={[["", "All categories"], ...CATEGORIES.map((c) => [c.key, c.name] as const)]}
          />
          <Field
            label="Status"
            name="status"
            defaultValue={status}
            options={STORY_STATUSES.map((s) => [s, STORY_STATUS_LABELS[s]])}
          />
          <button type="submit" className={PRIMARY_BUTTON}>
            Show
          </button>
        </Form>
      </Panel>

      <Panel id="list-heading" title={`${total} ${total === 1 ? "story" : "stories"}`}>
        {query ? (
          <p className="mt-1 text-sm text-slate-700">
            First what readers&apos; search finds for these words, best match first; then taken-down
            stories whose headline holds them.
          </p>
        ) : null}
        {/* Drawn anew after each change (a new location key): a row's actions close and its
            reason box empties, as after a full page load; a refused action keeps them. */}
        <ul key={key} className="mt-3 divide-y divide-slate-200 rounded ring-1 ring-slate-200">
          {stories.map((s) => (
            <StoryRow
              key={s.id}
              story={s}
              pinned={pinned.has(s.id)}
              list={list}
              error={failedRow === s.id ? (actionData?.error ?? null) : null}
            />
          ))}
        </ul>
        <PageLinks
          label="Pages of stories"
          page={page}
          pages={pages}
          href={(n) => listAddress(list, n)}
          previous="Newer"
          next="Older"
          className="mt-4 flex items-center gap-4"
          linkClassName="underline"
        />
      </Panel>
    </div>
  );
}

type ListedStory = Route.ComponentProps["loaderData"]["stories"][number];

/**
 * One story of the list: its thumbnail, headline and state, a link to it on the site, and its
 * actions behind a disclosure (open when one of them just failed), one form for all of them.
 */
function StoryRow({
  story,
  pinned,
  list,
  error,
}: {
  story: ListedStory;
  pinned: boolean;
  list: ListState;
  error: string | null;
}) {
  return (
    <li className="p-3">
      <div className="flex gap-3">
        <ArticleImage
          picture={story.picture}
          alt=""
          slot={THUMBNAIL_SLOT}
          width={96}
          height={54}
          className="aspect-video w-24 shrink-0 self-start rounded bg-slate-200 object-cover"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <Link
            to={`/newsroom/stories/${story.id}`}
            className="font-semibold break-words underline"
          >
            {story.title}
          </Link>
          {story.feedTitle !== null ? (
            <span className="text-sm break-words text-slate-700">
              Feed&apos;s headline: {story.feedTitle}
            </span>
          ) : null}
          <span className="flex flex-wrap gap-x-3 text-sm text-slate-700">
            <span>{categoryByKey(story.category).name}</span>
            <time dateTime={story.publishedAt}>{formatStaffTime(story.publishedAt)}</time>
            {story.down ? (
              <span className="rounded bg-red-100 px-1 font-semibold text-red-900">Taken down</span>
            ) : null}
            {pinned ? <span className="font-semibold">Pinned</span> : null}
            {story.siteLink ? (
              <a href={story.siteLink} className="underline">
                View on site
              </a>
            ) : null}
          </span>
        </div>
      </div>
      <details open={error !== null} className="mt-2">
        <summary className="cursor-pointer text-sm font-semibold text-brand">
          Actions<span className="sr-only">: {story.title}</span>
        </summary>
        <Form method="post" className="mt-2 flex max-w-2xl flex-col gap-3">
          <NewsroomNotice error={error} />
          <CsrfField />
          <input type="hidden" name="id" value={story.id} />
          <ListFields list={list} />
          {story.down ? (
            <p>
              <button type="submit" name="intent" value="restore" className={PRIMARY_BUTTON}>
                Restore the story
              </button>
            </p>
          ) : (
            <StoryTextAction intent="take-down" compact />
          )}
          <StoryTextAction intent="correct" compact />
          {story.down ? null : pinned ? (
            <p>
              <button type="submit" name="intent" value="unpin" className={BUTTON}>
                Unpin
              </button>
            </p>
          ) : (
            <p className="flex flex-wrap items-end gap-2">
              <PinHoursSelect compact />
            </p>
          )}
        </Form>
        <p className="mt-2 text-sm">
          <Link to={`/newsroom/stories/${story.id}`} className="underline">
            Headline, picture and earlier corrections: on its page
          </Link>
        </p>
      </details>
    </li>
  );
}
