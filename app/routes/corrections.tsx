import { PageAds } from "../components/PageAds";
import { Link } from "react-router";
import { readOr503 } from "../../server/news/load";
import { latestCorrections } from "../../server/news/repository";
import { pageHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { breadcrumbs } from "../../shared/structured-data";
import { PageHeading } from "../components/PageHeading";
import { formatLongDate } from "../lib/dates";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/corrections";

/** Corrections listed on the page and in its feed. */
export const CORRECTIONS_LISTED = 100;
export const CORRECTIONS_FEED_PATH = "/corrections/rss.xml";

export async function loader({ request, context }: Route.LoaderArgs) {
  const corrections = await readOr503(context.logger, "Failed to load corrections", () =>
    latestCorrections(context.db, CORRECTIONS_LISTED),
  );
  const head = pageHead(
    request,
    context,
    {
      title: "Corrections",
      description:
        "Corrections our newsroom has published to its stories, newest first, each dated and linked to its story.",
    },
    [breadcrumbs(context.config.siteUrl, [{ name: "Corrections", path: "/corrections" }])],
  );
  head.meta.push({
    tagName: "link",
    rel: "alternate",
    type: "application/rss+xml",
    title: "Corrections",
    href: CORRECTIONS_FEED_PATH,
  });
  return { corrections, head };
}

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "corrections" satisfies RouteKeysName };

export default function Corrections({ loaderData }: Route.ComponentProps) {
  const { corrections } = loaderData;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeading lead="When we get something wrong, we correct it and say so here, newest first.">
        Corrections
      </PageHeading>
      <p className="mb-6">
        <a href={CORRECTIONS_FEED_PATH} className="text-brand underline">
          Follow corrections by RSS
        </a>
      </p>
      {corrections.length === 0 ? (
        <p>No corrections have been published.</p>
      ) : (
        <ol className="divide-y divide-slate-200">
          {corrections.map((c) => (
            <li key={c.id} className="py-4">
              <p className="text-sm text-slate-600">
                <time dateTime={c.date}>{formatLongDate(c.date)}</time>
              </p>
              <h2 className="mt-1 text-lg font-semibold">
                <Link to={`/article/${c.article.id}`} className="hover:underline">
                  {c.article.title}
                </Link>
              </h2>
              <p className="mt-1">{c.text}</p>
            </li>
          ))}
        </ol>
      )}
      <PageAds kind="page" at="end" className="mt-10" />
    </div>
  );
}
