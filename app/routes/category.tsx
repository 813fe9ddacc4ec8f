import {
  data,
  isRouteErrorResponse,
  Link,
  redirect,
  useParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { readOr503 } from "../../server/news/load";
import { latestArticles } from "../../server/news/repository";
import { ArticleCard } from "../components/ArticleCard";
import { ErrorState } from "../components/ErrorState";
import { NOT_FOUND_SEO, NotFound } from "../components/NotFound";
import { OutsideLinks } from "../components/OutsideLinks";
import { PICTURE_SLOTS } from "../components/picture-slots";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { SidebarBox } from "../components/SidebarBox";
import { onlyToggleChanged, StoryList, type CardLoad } from "../components/StoryList";
import type { Article } from "../../shared/article";
import {
  articleCategory,
  categoryByKey,
  categoryByPath,
  errorText,
  legacyRedirect,
  type Category,
} from "../../shared/categories";
import { formatLongDate } from "../lib/dates";
import { pageMeta } from "../lib/meta";
import { categoryHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import type { Content } from "../../server/content/load";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/category";

/** The spec's limit: at most 15 articles per category page. */
const CATEGORY_LIMIT = 15;

/**
 * A category page by its key in the registry (Community's has a route of its own). An old address
 * redirects to its page; any other key is an unknown page. Up to 15 stories are sent, whatever
 * `?all` says: the page shows 5 or all of them.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const moved = legacyRedirect(`/${params.category}`);
  if (moved) throw redirect(`${moved}${url.search}`, 301);
  const category = categoryByPath(`/${params.category}`);
  if (!category) {
    context.logger.warn({ path: url.pathname }, "404: no route matches the path");
    throw data("Not Found", { status: 404 });
  }
  const articles = await readOr503(context.logger, errorText(category.name), () =>
    latestArticles(context.db, { category: articleCategory(category), limit: CATEGORY_LIMIT }),
  );
  const { localNews, business } = context.content;
  return {
    key: category.key,
    articles,
    head: categoryHead(request, context, category, articles),
    // The sidebars of the two pages that have one.
    localNews: category.key === "local-news" ? localNews : null,
    business: category.key === "business" ? business : null,
  };
}

export const meta: Route.MetaFunction = (args) =>
  isRouteErrorResponse(args.error) && args.error.status === 404
    ? pageMeta(args, NOT_FOUND_SEO)
    : headMeta(args);
export const handle = { ...headHandle, cacheKeys: "category" satisfies RouteKeysName };

/** Switching between 5 and all needs no new data. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && onlyToggleChanged(currentUrl, nextUrl)) return false;
  return defaultShouldRevalidate;
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const category = categoryByKey(loaderData.key);
  const { articles, localNews, business } = loaderData;
  if (localNews) return <LocalNews category={category} articles={articles} content={localNews} />;
  if (business) return <Business category={category} articles={articles} content={business} />;
  return (
    <>
      <PageHeading>{category.heading}</PageHeading>
      <PageAds kind="grid" at="lead" className="mb-8" />
      <StoryList
        {...storiesOf(category, articles)}
        listClassName="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
        cardSlot={PICTURE_SLOTS.cardThreeColumns}
        ads="grid"
      />
    </>
  );
}

/** What every category page's story list has: its stories, id, heading, toggle and empty text. */
function storiesOf(category: Category, articles: Article[]) {
  return {
    articles,
    id: `${category.key}-story`,
    heading: `${category.heading} stories`,
    toggleLabel: category.toggleLabel,
    empty: `No ${category.name} stories yet.`,
    firstIsLargest: true,
  };
}

/** A category page with a sidebar of its own: its stories and the sidebar's content. */
interface PageProps<Sidebar> {
  category: Category;
  articles: Article[];
  content: Sidebar;
}

function LocalNews({ category, articles, content }: PageProps<Content["localNews"]>) {
  return (
    <>
      <PageHeading>{category.heading}</PageHeading>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0">
          <StoryList
            {...storiesOf(category, articles)}
            listClassName="grid gap-6 md:grid-cols-3"
            cardSlot={PICTURE_SLOTS.cardLocalNews}
            ads="localNews"
          />
        </div>
        <div className="flex flex-col gap-8">
          <OutsideLinks title="Explore San Diego" links={content.links} />
          <SidebarBox id="about-san-diego" title={content.aboutSanDiego.title}>
            {content.aboutSanDiego.paragraphs.map((text) => (
              <p key={text} className="mt-3 text-sm text-slate-700">
                {text}
              </p>
            ))}
          </SidebarBox>
        </div>
      </div>
    </>
  );
}

function BusinessCard({ article, load }: { article: Article; load: CardLoad }) {
  return (
    <ArticleCard
      article={article}
      slot={PICTURE_SLOTS.cardTwoColumnsBesideSidebar}
      load={load}
      action={
        <Link
          to={`/article/${article.id}`}
          className="self-start font-semibold text-brand underline decoration-1 underline-offset-2 hover:decoration-2"
        >
          Read More<span className="sr-only"> about {article.title}</span>
          <span aria-hidden="true">&nbsp;→</span>
        </Link>
      }
    />
  );
}

function Business({ category, articles, content }: PageProps<Content["business"]>) {
  const { spotlight, indicators, events, directory } = content;
  return (
    <>
      <PageHeading>{category.heading}</PageHeading>
      <PageAds kind="grid" at="lead" className="mb-8" />
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          <StoryList
            {...storiesOf(category, articles)}
            listClassName="grid gap-6 sm:grid-cols-2"
            cardSlot={PICTURE_SLOTS.cardTwoColumnsBesideSidebar}
            renderItem={(article, load) => <BusinessCard article={article} load={load} />}
            ads="grid"
          />
        </div>
        <div className="flex flex-col gap-8">
          <SidebarBox id="business-spotlight" title="Business Spotlight">
            <h3 className="mt-3 font-semibold">{spotlight.name}</h3>
            <p className="text-sm text-slate-600">{spotlight.neighborhood}</p>
            <p className="mt-2 text-sm text-slate-700">{spotlight.text}</p>
          </SidebarBox>
          <SidebarBox id="economic-indicators" title="Economic Indicators">
            <p className="mt-1 text-sm text-slate-600">
              {indicators.note} As of{" "}
              <time dateTime={indicators.asOf}>{formatLongDate(indicators.asOf)}</time>.
            </p>
            <dl className="mt-3 divide-y divide-slate-200">
              {indicators.figures.map((figure) => (
                <div key={figure.label} className="py-2">
                  <dt className="text-sm text-slate-700">{figure.label}</dt>
                  <dd className="flex items-baseline justify-between gap-3">
                    <span className="text-lg font-bold tabular-nums">{figure.value}</span>
                    <span className="text-xs text-slate-600">{figure.change}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </SidebarBox>
          <SidebarBox id="business-events" title="Upcoming Business Events">
            <ul className="mt-3 space-y-3">
              {events.map((event) => (
                <li key={event.title} className="border-l-4 border-brand pl-3">
                  <p className="font-semibold">{event.title}</p>
                  <p className="text-sm text-slate-700">
                    <time dateTime={event.date}>{formatLongDate(event.date)}</time> · {event.place}
                  </p>
                </li>
              ))}
            </ul>
          </SidebarBox>
        </div>
      </div>
      <div className="mt-10">
        <OutsideLinks title="Local Business Directory" links={directory} wide />
      </div>
    </>
  );
}

/**
 * The site's 404 screen for an unknown category; otherwise the heading and Try Again, with the
 * spec's message except on the pages that show no error text.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const category = categoryByPath(`/${useParams().category}`);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (!category) return <ErrorState message="An error occurred" />;
  return (
    <ErrorState
      heading={category.heading}
      message={category.showsErrors ? errorText(category.name) : ""}
    />
  );
}
