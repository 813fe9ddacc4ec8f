import { Fragment } from "react";
import { data, Link, useRouteLoaderData } from "react-router";
import { bannerCacheHeaders, bannerToShow } from "../../server/newsroom/banner";
import { readOr503 } from "../../server/news/load";
import { homeLists } from "../../server/news/home-lists";
import { ArticleCard } from "../components/ArticleCard";
import { CategoryChips } from "../components/CategoryChips";
import { PhotosIcon } from "../components/Icons";
import { ClickToLoadFrame, LINK, VideoEmbed } from "../components/Embed";
import { FeaturedSlider } from "../components/FeaturedSlider";
import { NewsletterBox } from "../components/NewsletterBox";
import { ListAd, PageAds } from "../components/PageAds";
import { PICTURE_SLOTS } from "../components/picture-slots";
import { Section } from "../components/Section";
import { useEmbeds } from "../lib/embeds";
import { RENDERED_WHEN_NEAR } from "../lib/rendered-when-near";
import { pageHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import type { loader as rootLoader } from "../root";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/home";

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "home" satisfies RouteKeysName };

/** The page's caching, shortened while staff's Breaking banner is about to expire (decision 027). */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/** The spec's message when the home page's data cannot be read. */
export const HOME_ERROR = "Failed to load news data";

/** The spec's image-board frame height. */
const IMAGE_FEED_HEIGHT = 1200;

export async function loader({ context, request }: Route.LoaderArgs) {
  return readOr503(context.logger, HOME_ERROR, async () => {
    const now = new Date();
    const [{ headlines, featured, recent: latest }, banner] = await Promise.all([
      homeLists(context.db),
      bannerToShow(context.db, context.content.site.breaking, now),
    ]);
    const head = pageHead(request, context, {
      title: "Home",
      description: `${context.content.site.tagline}: local news, politics, business, sports and culture.`,
    });
    const caching = bannerCacheHeaders(banner, now, context.config.pageCache.ttlSeconds);
    const breaking = banner && { text: banner.text, link: banner.link };
    return data(
      { headlines, featured, latest, head, breaking },
      caching ? { headers: caching } : undefined,
    );
  });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { headlines, featured, latest, breaking } = loaderData;
  const embeds = useEmbeds();
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  return (
    <>
      <h1 className="sr-only">{site?.name}: San Diego news</h1>
      {breaking ? (
        <p className="mb-6 rounded bg-red-700 px-4 py-2 text-white">
          <strong className="mr-2 uppercase">Breaking</strong>
          {breaking.link ? (
            <a href={breaking.link} className="underline decoration-1 underline-offset-2">
              {breaking.text}
            </a>
          ) : (
            breaking.text
          )}
        </p>
      ) : null}

      <Section title="Today's Headlines">
        <ol className="grid gap-x-8 gap-y-2 md:grid-cols-2">
          {headlines.map((a) => (
            <li key={a.id} className="border-l-4 border-brand pl-3">
              <Link to={`/article/${a.id}`} className="font-semibold hover:underline">
                {a.title}
              </Link>
            </li>
          ))}
        </ol>
      </Section>

      <FeaturedSlider articles={featured} />

      <PageAds kind="home" at="lead" className="mb-8" />

      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0">
          <Section title="Featured Video">
            <VideoEmbed url={embeds.featuredVideoUrl} title="Featured video" />
          </Section>
          <Section title="Latest News">
            <ul className="grid gap-6 sm:grid-cols-2">
              {latest.map((article, index) => (
                <Fragment key={article.id}>
                  <li className={`flex ${RENDERED_WHEN_NEAR}`}>
                    <ArticleCard
                      article={article}
                      slot={PICTURE_SLOTS.cardTwoColumnsBesideSidebar}
                    />
                  </li>
                  <ListAd kind="home" index={index} shown={latest.length} />
                </Fragment>
              ))}
            </ul>
          </Section>
        </div>
        <aside className="mb-8 flex flex-col gap-8 lg:mb-0" aria-label="Sidebar">
          <PageAds kind="home" at="sidebar" />
          {/* Latest News runs far below the sidebar: these stay in view beside it. */}
          <div className="flex flex-col gap-8 lg:sticky lg:top-4">
            <NewsletterBox />
            <CategoryChips />
          </div>
        </aside>
      </div>

      <Section title="Image News Feed">
        <ClickToLoadFrame
          src={embeds.imageFeedUrl}
          title="Image news feed"
          height={IMAGE_FEED_HEIGHT}
          icon={<PhotosIcon />}
          description="Photos from the day's news around San Diego County, from our image board."
          fallback={
            <>
              Photos from the day&apos;s news will appear here. Meanwhile, see the pictures with
              today&apos;s{" "}
              <Link to="/local-news" className={LINK}>
                Local News
              </Link>
              .
            </>
          }
        />
      </Section>
    </>
  );
}
