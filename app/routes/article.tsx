import { socialImage } from "../../shared/picture";
import { data, Link, redirect, useRouteLoaderData } from "react-router";
import { stripTags } from "../../server/ingest/sanitize";
import { readOr503, readOrEmpty } from "../../server/news/load";
import {
  articleById,
  correctionsOf,
  isTakenDown,
  latestArticles,
  relatedArticles,
} from "../../server/news/repository";
import { ArticleCard } from "../components/ArticleCard";
import { ArticleImage } from "../components/ArticleImage";
import { PICTURE_SLOTS } from "../components/picture-slots";
import { PageAds } from "../components/PageAds";
import { OWN_STORY_LABEL } from "../../shared/article";
import { categoryByKey } from "../../shared/categories";
import { formatLongDate } from "../lib/dates";
import { pageHead, pageUrl } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { breadcrumbs, newsArticle } from "../../shared/structured-data";
import type { loader as rootLoader } from "../root";
import type { Route } from "./+types/article";

/** The site an article came from, for the photo credit: its domain without "www.". */
export function sourceName(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, "");
  } catch {
    return "the original publisher";
  }
}

/** The link ingest ends every body with (server/ingest/normalize.ts); the page draws its own after the text. */
const FEED_READ_MORE =
  /<p><a href="[^"]*" target="_blank" rel="noopener noreferrer">Read full article<\/a><\/p>$/;

/**
 * Whether the body opens with the excerpt, as it does when the feed gave one text for both: the
 * excerpt is then not shown above the picture as well. A cut excerpt ends with "...", and the cut
 * may have dropped punctuation before it.
 */
function bodyOpensWith(content: string, excerpt: string): boolean {
  return stripTags(content).startsWith(excerpt.replace(/\.\.\.$/, ""));
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const article = await readOr503(context.logger, "Failed to load article", () =>
    articleById(context.db, params.id),
  );
  if (!article) {
    // A story staff took down is gone for good, and says so (search engines drop it sooner).
    if (
      await readOr503(context.logger, "Failed to load article", () =>
        isTakenDown(context.db, params.id),
      )
    ) {
      const head = pageHead(request, context, {
        title: "Story removed",
        description: "This story has been removed from the site.",
        noindex: true,
      });
      return data({ gone: true as const, head }, { status: 410 });
    }
    throw redirect("/not-found");
  }
  const [related, latest, corrections] = await Promise.all([
    readOrEmpty(context.logger, "related stories", () => relatedArticles(context.db, article)),
    readOrEmpty(context.logger, "latest news", () =>
      latestArticles(context.db, { limit: 4, excludeId: article.id }),
    ),
    readOrEmpty(context.logger, "corrections", () => correctionsOf(context.db, article.id)),
  ]);
  const { siteUrl } = context.config;
  const category = categoryByKey(article.category);
  const url = pageUrl(request, siteUrl);
  const head = pageHead(
    request,
    context,
    {
      title: article.title,
      description: article.excerpt,
      type: "article",
      image: socialImage(article.picture, article.title),
      article: { publishedTime: article.date, section: category.name, author: article.author },
    },
    [
      newsArticle(siteUrl, url, article, corrections),
      breadcrumbs(siteUrl, [
        ...(category.path ? [{ name: category.heading, path: category.path }] : []),
        { name: article.title, path: `/article/${article.id}` },
      ]),
    ],
  );
  // An own story's body is the whole story, and its dek is what stands under the headline.
  const body = article.own ? article.content : article.content.replace(FEED_READ_MORE, "");
  return {
    gone: false as const,
    article: { ...article, content: body },
    showExcerpt: !article.own && article.excerpt !== "" && !bodyOpensWith(body, article.excerpt),
    related,
    latest,
    corrections,
    head,
  };
}

export const meta = headMeta;
export const handle = headHandle;

/** What a story taken down by the newsroom shows at its address (with 410 Gone). */
function StoryRemoved() {
  return (
    <section className="mx-auto max-w-2xl py-16 text-center">
      <h1 className="text-3xl font-bold">This story has been removed</h1>
      <p className="mt-4 text-lg text-slate-700">
        Our newsroom took this story down and it is no longer available.
      </p>
      <p className="mt-6 flex flex-wrap justify-center gap-4">
        <Link to="/" className="text-brand underline">
          Return to Home
        </Link>
        <Link to="/corrections" className="text-brand underline">
          Corrections
        </Link>
      </p>
    </section>
  );
}

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const siteName = useRouteLoaderData<typeof rootLoader>("root")?.site.name ?? "";
  if (loaderData.gone) return <StoryRemoved />;
  const { article, showExcerpt, related, latest, corrections } = loaderData;
  const category = categoryByKey(article.category);
  const outlet = sourceName(article.link);
  const { ownStory } = article;
  const dek = ownStory ? ownStory.dek : showExcerpt ? article.excerpt : "";
  const credit = ownStory ? (ownStory.pictureCredit ?? siteName) : outlet;
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_20rem]">
      <div className="min-w-0">
        <article>
          <p className="flex flex-wrap items-center gap-3 text-sm">
            {category.path ? (
              <Link
                to={category.path}
                className="rounded bg-brand px-2 py-1 font-semibold text-white hover:bg-brand-dark"
              >
                {category.label}
              </Link>
            ) : (
              <span className="rounded bg-brand px-2 py-1 font-semibold text-white">
                {category.label}
              </span>
            )}
            <time dateTime={article.date}>{formatLongDate(article.date)}</time>
            {article.own ? (
              <span className="font-semibold text-brand-dark">{OWN_STORY_LABEL}</span>
            ) : null}
          </p>
          <h1 className="mt-3 text-3xl leading-tight font-bold md:text-4xl">{article.title}</h1>
          {dek ? <p className="mt-3 text-lg text-slate-700">{dek}</p> : null}
          <p className="mt-2 text-sm font-semibold">By {article.author}</p>
          <figure className="mt-6">
            <ArticleImage
              picture={article.picture}
              alt={ownStory?.pictureAlt ?? article.title}
              slot={PICTURE_SLOTS.articleHero}
              load="priority"
              width={1200}
              height={675}
              className="aspect-video w-full rounded bg-slate-200 object-cover"
            />
            <figcaption className="mt-1 text-xs text-slate-600">Photo: {credit}</figcaption>
          </figure>
          {corrections.length > 0 ? (
            <section
              aria-labelledby="corrections-heading"
              className="mt-6 rounded border-l-4 border-amber-500 bg-amber-50 p-4"
            >
              <h2 id="corrections-heading" className="font-bold">
                {corrections.length === 1 ? "Correction" : "Corrections"}
              </h2>
              <ul className="mt-2 space-y-2">
                {corrections.map((c) => (
                  <li key={c.id}>
                    <time dateTime={c.date} className="font-semibold">
                      {formatLongDate(c.date)}:
                    </time>{" "}
                    {c.text}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {/* Stored content was sanitised to an allowlist at ingest, or in the newsroom. */}
          <div
            className="article-body mt-6 space-y-4 text-lg leading-relaxed"
            dangerouslySetInnerHTML={{ __html: article.content }}
          />
          {article.own ? null : (
            <p className="mt-8">
              <a
                href={article.link}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-block rounded bg-brand px-4 py-2 font-semibold break-words text-white hover:bg-brand-dark"
              >
                Read the full story at {outlet}
                <span aria-hidden="true">&nbsp;↗</span>
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </p>
          )}
        </article>
        <PageAds kind="article" at="lead" className="mt-10" />
        {related.length > 0 ? (
          <section aria-labelledby="related-heading" className="mt-12">
            <h2 id="related-heading" className="mb-4 text-2xl font-bold">
              Related Stories
            </h2>
            <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
              {related.map((a) => (
                <li key={a.id} className="flex">
                  <ArticleCard article={a} slot={PICTURE_SLOTS.cardRelated} />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
      <aside className="flex flex-col gap-8" aria-label="Sidebar">
        <section aria-labelledby="latest-heading">
          <h2 id="latest-heading" className="mb-3 text-xl font-bold">
            Latest News
          </h2>
          <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200">
            {latest.map((a) => (
              <li key={a.id} className="p-3">
                <Link to={`/article/${a.id}`} className="font-semibold hover:underline">
                  {a.title}
                </Link>
                <p className="mt-1 text-xs text-slate-600">
                  <time dateTime={a.date}>{formatLongDate(a.date)}</time>
                </p>
              </li>
            ))}
          </ul>
        </section>
        <PageAds kind="article" at="sidebar" />
      </aside>
    </div>
  );
}
