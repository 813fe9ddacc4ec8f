import { socialImage } from "../../shared/picture";
import { data, Link, redirect } from "react-router";
import { stripTags } from "../../server/ingest/sanitize";
import { readOr503, readOrEmpty } from "../../server/news/load";
import {
  articleById,
  correctionsOf,
  isTakenDown,
  latestArticles,
  otherVersions,
  relatedArticles,
} from "../../server/news/repository";
import { categoryByKey } from "../../shared/categories";
import { pageHead, pageUrl } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { breadcrumbs, newsArticle } from "../../shared/structured-data";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/article";
import { ArticleView } from "../components/ArticleView";

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
  const { group } = article;
  const [related, latest, corrections, versions] = await Promise.all([
    readOrEmpty(context.logger, "related stories", () => relatedArticles(context.db, article)),
    readOrEmpty(context.logger, "latest news", () =>
      latestArticles(context.db, {
        limit: 4,
        excludeId: article.id,
        ...(group ? { excludeGroup: group } : {}),
      }),
    ),
    readOrEmpty(context.logger, "corrections", () => correctionsOf(context.db, article.id)),
    group
      ? readOrEmpty(context.logger, "other versions", () =>
          otherVersions(context.db, group, article.id),
        )
      : [],
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
    // Only a story in a group has other versions; one alone sends none.
    ...(versions.length > 0 ? { versions } : {}),
    head,
  };
}

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "article" satisfies RouteKeysName };

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
  if (loaderData.gone) return <StoryRemoved />;
  return <ArticleView {...loaderData} />;
}
