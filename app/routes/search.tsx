import { data, Link } from "react-router";
import { readOr503 } from "../../server/news/load";
import { latestArticles } from "../../server/news/repository";
import {
  MAX_QUERY_LENGTH,
  RANKED_MATCHES,
  SEARCH_PAGE_SIZE,
  searchSite,
  type SearchCursor,
} from "../../server/news/search";
import { ArticleGrid } from "../components/ArticleGrid";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { PageLinks } from "../components/PageLinks";
import { SearchForm } from "../components/SearchForm";
import { SearchResult } from "../components/SearchResult";
import { formatLongDate } from "../lib/dates";
import { pageHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { cursorDate, cursorId } from "../../shared/list-cursor";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/search";

/** Stories shown under an empty search box. */
const LATEST_LIMIT = 12;

function parsePage(value: string | null): number | null {
  if (value === null) return 1;
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : null;
}

/** An Older stories link's start, as the address holds it: "date" or "date~id". */
function parseBefore(value: string | null): SearchCursor | null | undefined {
  if (value === null) return undefined;
  const split = value.indexOf("~");
  const date = cursorDate(split === -1 ? value : value.slice(0, split));
  const id = cursorId(split === -1 ? "" : value.slice(split + 1));
  return date && id !== null ? { date, id } : null;
}

const beforeParam = (cursor: SearchCursor) =>
  cursor.id ? `${cursor.date.toISOString()}~${cursor.id}` : cursor.date.toISOString();

function searchLink(query: string, page: number, before?: string): string {
  const params = new URLSearchParams({ q: query });
  if (before) params.set("before", before);
  if (page > 1) params.set("page", String(page));
  return `/search?${params.toString()}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const head = (query: string) =>
    pageHead(request, context, {
      title: query ? `Search: ${query}` : "Search",
      description: "Search San Diego news stories and blog posts.",
      keepParams: ["q", "before", "page"],
      // Result pages are endless variations of one page: keep them out of search engines.
      noindex: true,
    });
  const params = new URL(request.url).searchParams;
  // Control characters are never words (and PostgreSQL refuses NUL): they count as spaces.
  const query = (params.get("q") ?? "")
    .replace(/[\s\p{Cc}]+/gu, " ")
    .trim()
    .slice(0, MAX_QUERY_LENGTH);
  const page = parsePage(params.get("page"));
  const before = parseBefore(params.get("before"));
  if (page === null || before === null) throw data("Not Found", { status: 404 });
  const found = await readOr503(context.logger, "Failed to search the news", async () => {
    if (!query) {
      return {
        head: head(query),
        query,
        page: 1,
        pages: 1,
        total: 0,
        hits: [],
        latest: await latestArticles(context.db, { limit: LATEST_LIMIT }),
      };
    }
    const { hits, total, near, older } = await searchSite(context.db, query, { page, before });
    const pages = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
    // `near` only when set, so every other result page's data stays as it was.
    return {
      head: head(query),
      query,
      page,
      pages,
      total,
      hits,
      ...(near ? { near } : {}),
      // Set only when searching older stories, or when there are older ones to search.
      ...(before
        ? { before: { param: beforeParam(before), date: before.date.toISOString() } }
        : {}),
      ...(older ? { older: beforeParam(older) } : {}),
      // Only the newest RANKED_MATCHES articles are ranked: there may be more.
      ...(total >= RANKED_MATCHES ? { more: true } : {}),
      latest: [],
    };
  });
  // A page past the last one is not there (404); the reads found out it does not exist.
  if (found.page > found.pages) throw data("Not Found", { status: 404 });
  return found;
}

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "search" satisfies RouteKeysName };

export default function Search({ loaderData }: Route.ComponentProps) {
  const { query, page, pages, total, hits, latest } = loaderData;
  const near = "near" in loaderData && loaderData.near;
  const more = "more" in loaderData && loaderData.more;
  const before = "before" in loaderData ? loaderData.before : undefined;
  const older = "older" in loaderData ? loaderData.older : undefined;
  return (
    <>
      <PageHeading>{query ? `Results for “${query}”` : "Search"}</PageHeading>
      <div className="mb-8 max-w-xl">
        <SearchForm id="search-page-input" defaultValue={query} />
      </div>
      {!query ? (
        <>
          <h2 className="mb-4 text-2xl font-bold">Latest stories</h2>
          <ArticleGrid articles={latest} empty="No stories have been published yet." />
        </>
      ) : total === 0 ? (
        <div className="rounded-lg bg-white p-8 ring-1 ring-slate-200" role="status">
          <p className="font-semibold">No stories or blog posts match “{query}”.</p>
          <p className="mt-2 text-slate-700">
            Try fewer or different words, check the spelling, or browse the{" "}
            <Link to="/archives" className="text-brand underline">
              archives
            </Link>{" "}
            by category and year.
          </p>
        </div>
      ) : (
        <>
          <p className="mb-4 font-semibold" role="status">
            {near ? (
              `No stories match “${query}”. Results for “${near}”:`
            ) : (
              <>
                {total === 1 ? "1 result" : `${total}${more ? "+" : ""} results`}
                {before ? `, published up to ${formatLongDate(before.date)}` : ""}
                {pages > 1 ? `, page ${page} of ${pages}` : ""}
              </>
            )}
          </p>
          <ol className="space-y-4">
            {hits.map((hit) => (
              <li key={hit.kind === "article" ? `a-${hit.id}` : `b-${hit.slug}`}>
                <SearchResult hit={hit} />
              </li>
            ))}
          </ol>
          <PageLinks
            label="Result pages"
            page={page}
            pages={pages}
            href={(n) => searchLink(query, n, before?.param)}
          />
          {older ? (
            <p className="mt-6">
              These are the newest matches.{" "}
              <Link to={searchLink(query, 1, older)} className="text-brand underline">
                Search older stories
              </Link>
            </p>
          ) : null}
        </>
      )}
      <PageAds kind="page" at="end" className="mt-10" />
    </>
  );
}
