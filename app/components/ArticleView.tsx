import { Link, useRouteLoaderData } from "react-router";
import type { Article, ArticleWithBody, StoryVersion } from "../../shared/article";
import { OWN_STORY_LABEL } from "../../shared/article";
import { categoryByKey } from "../../shared/categories";
import type { Correction } from "../../server/news/repository";
import { formatLongDate } from "../lib/dates";
import type { loader as rootLoader } from "../root";
import { ArticleCard } from "./ArticleCard";
import { ArticleImage } from "./ArticleImage";
import { PageAds } from "./PageAds";
import { PICTURE_SLOTS } from "./picture-slots";
import { sourceName } from "../../shared/source-name";

export interface ArticleViewProps {
  article: ArticleWithBody;
  showExcerpt: boolean;
  related: Article[];
  latest: Article[];
  corrections: Correction[];
  /** The same story from other outlets (decision 032); none when it stands alone. */
  versions?: StoryVersion[];
}

/**
 * A story as readers see it: the article page's body and sidebar. The article page draws it from
 * the live story, the newsroom's preview from a draft (routes/newsroom/preview-frame.tsx), so the
 * preview is the page itself.
 */
export function ArticleView({
  article,
  showExcerpt,
  related,
  latest,
  corrections,
  versions = [],
}: ArticleViewProps) {
  const siteName = useRouteLoaderData<typeof rootLoader>("root")?.site.name ?? "";
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
          {versions.length > 0 ? (
            <section
              aria-labelledby="versions-heading"
              className="mt-8 rounded-lg bg-white p-4 ring-1 ring-slate-200"
            >
              <h2 id="versions-heading" className="text-lg font-bold">
                Also covered by
              </h2>
              <ul className="mt-2 space-y-2">
                {versions.map((v) => (
                  <li key={v.id}>
                    <Link
                      to={`/article/${v.id}`}
                      className="font-semibold underline underline-offset-2 hover:text-brand-dark"
                    >
                      {v.title}
                    </Link>
                    <span className="text-sm text-slate-700">
                      {" "}
                      ({v.source}, <time dateTime={v.date}>{formatLongDate(v.date)}</time>)
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
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
