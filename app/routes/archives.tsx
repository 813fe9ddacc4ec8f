import { Fragment } from "react";
import { Form, useSubmit } from "react-router";
import { readOr503 } from "../../server/news/load";
import { archiveArticles, archiveYears } from "../../server/news/archive";
import { cursorOf, parseCursor, setCursor, type ListCursor } from "../../shared/list-cursor";
import { ArticleCard } from "../components/ArticleCard";
import { PICTURE_SLOTS } from "../components/picture-slots";
import { PageHeading } from "../components/PageHeading";
import { ListAd, PageAds } from "../components/PageAds";
import { PageLinks } from "../components/PageLinks";
import {
  CATEGORIES,
  categoryByKey,
  isCategoryKey,
  type CategoryKey,
} from "../../shared/categories";
import { sanDiegoYear } from "../lib/dates";
import { pageHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/archives";

export const ARCHIVE_PAGE_SIZE = 30;
const FILTER_CATEGORIES = CATEGORIES.filter((c) => c.inArchivesFilter);

function parseCategory(value: string | null): CategoryKey | undefined {
  return value && isCategoryKey(value) && categoryByKey(value).inArchivesFilter ? value : undefined;
}

function parsePage(value: string | null): number {
  const page = Number(value ?? "1");
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  return readOr503(context.logger, "Failed to load the archives", async () => {
    const years = await archiveYears(context.db);
    const requestedYear = Number(params.get("year"));
    const year = years.includes(requestedYear) ? requestedYear : (years[0] ?? sanDiegoYear());
    const category = parseCategory(params.get("category"));
    const page = parsePage(params.get("page"));
    // The page's links carry a cursor (keyset paging); a `?page=N` alone is read by offset.
    const cursor = parseCursor(params);
    const { articles, total } = await archiveArticles(context.db, {
      category,
      year,
      limit: ARCHIVE_PAGE_SIZE,
      offset: (page - 1) * ARCHIVE_PAGE_SIZE,
      ...(cursor ? { cursor } : {}),
    });
    const filtered = ["category", "year", "page"].some((name) => params.has(name));
    const label = category ? categoryByKey(category).label : "All";
    const head = pageHead(request, context, {
      title: filtered ? `Archives: ${label}, ${year}, page ${page}` : "Archives",
      description: "Past San Diego stories by category and year.",
      keepParams: ["category", "year", "page", "after", "before"],
      // One canonical archive page for search engines; its filtered views stay out of the index.
      noindex: filtered,
    });
    return { years, year, category: category ?? null, page, articles, total, head };
  });
}

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "archives" satisfies RouteKeysName };

/** Page `page` of a list, read on from `cursor` (the first page needs none). */
function pageLink(
  category: CategoryKey | null,
  year: number,
  page: number,
  cursor: ListCursor | undefined,
): string {
  const query = new URLSearchParams();
  if (category) query.set("category", category);
  query.set("year", String(year));
  if (page > 1) {
    query.set("page", String(page));
    if (cursor) setCursor(query, cursor);
  }
  return `/archives?${query.toString()}`;
}

export default function Archives({ loaderData }: Route.ComponentProps) {
  const { years, year, category, page, articles, total } = loaderData;
  const submit = useSubmit();
  const categoryLabel = category ? categoryByKey(category).label : "All";
  const pages = Math.max(1, Math.ceil(total / ARCHIVE_PAGE_SIZE));
  return (
    <>
      <PageHeading lead="Past stories by category and year.">Archives</PageHeading>
      <Form
        method="get"
        className="mb-6 flex flex-wrap items-end gap-4"
        // With JavaScript a choice applies at once; without it, the Apply button submits.
        onChange={(event) => void submit(event.currentTarget)}
      >
        <label className="flex flex-col text-sm font-semibold">
          Category
          <select
            name="category"
            defaultValue={category ?? ""}
            className="mt-1 rounded border border-slate-400 bg-white px-3 py-2 font-normal"
          >
            <option value="">All</option>
            {FILTER_CATEGORIES.map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm font-semibold">
          Year
          <select
            name="year"
            defaultValue={year}
            className="mt-1 rounded border border-slate-400 bg-white px-3 py-2 font-normal"
          >
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded bg-brand px-4 py-2 font-semibold text-white">
          Apply filters
        </button>
      </Form>
      <p className="mb-4 font-semibold" aria-live="polite">
        Showing {total} articles in {categoryLabel} for {year}
      </p>
      <PageAds kind="archives" at="lead" className="mb-6" />
      {articles.length === 0 ? (
        <div className="rounded-lg bg-white p-8 text-center ring-1 ring-slate-200">
          <p className="font-semibold">No articles found for the selected filters.</p>
          <p className="mt-1 text-slate-700">Try adjusting your category or year selection.</p>
        </div>
      ) : (
        <>
          <h2 className="sr-only">Articles</h2>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {articles.map((article, index) => (
              <Fragment key={article.id}>
                <li className="flex">
                  <ArticleCard
                    article={article}
                    slot={PICTURE_SLOTS.cardThreeColumns}
                    load="lazy"
                  />
                </li>
                <ListAd kind="archives" index={index} shown={articles.length} />
              </Fragment>
            ))}
          </ul>
        </>
      )}
      <PageLinks
        label="Archive pages"
        page={page}
        pages={pages}
        href={(n) => {
          const [first, last] = [articles[0], articles.at(-1)];
          const cursor =
            n > page && last
              ? cursorOf(last, "after")
              : n < page && first
                ? cursorOf(first, "before")
                : undefined;
          return pageLink(category, year, n, cursor);
        }}
      />
    </>
  );
}
