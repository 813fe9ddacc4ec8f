import { ArticleGrid } from "../components/ArticleGrid";
import { PageHeading } from "../components/PageHeading";
import { SearchForm } from "../components/SearchForm";
import { basicMeta } from "../lib/meta";
import { latestArticles, searchArticles } from "../../server/news/repository";
import type { Route } from "./+types/search";

const RESULTS_LIMIT = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  const articles = query
    ? await searchArticles(context.db, query, RESULTS_LIMIT)
    : await latestArticles(context.db, { limit: RESULTS_LIMIT });
  return { query, articles };
}

export const meta: Route.MetaFunction = ({ data }) => [
  ...basicMeta(data?.query ? `Search: ${data.query}` : "Search", "Search San Diego news stories."),
  { name: "robots", content: "noindex" },
];

export default function Search({ loaderData }: Route.ComponentProps) {
  const { query, articles } = loaderData;
  return (
    <>
      <PageHeading>{query ? `Results for “${query}”` : "Search"}</PageHeading>
      <div className="mb-8 max-w-xl">
        <SearchForm id="search-page-input" defaultValue={query} />
      </div>
      {query ? null : <h2 className="mb-4 text-2xl font-bold">Latest stories</h2>}
      <ArticleGrid
        articles={articles}
        empty={`No stories match “${query}”. Try fewer or different words.`}
      />
    </>
  );
}
