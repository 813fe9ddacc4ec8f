import { readOr503 } from "../../server/news/load";
import { latestCorrections } from "../../server/news/repository";
import { correctionsFeed } from "../../server/seo/xml";
import { CORRECTIONS_KEY } from "../../shared/cache-keys";
import { rssHeaders } from "./rss";
import type { Route } from "./+types/corrections-rss";

const FEED_ITEMS = 50;

/** /corrections/rss.xml: the newest corrections, each linking to its story. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const corrections = await readOr503(context.logger, "A feed could not be read", () =>
    latestCorrections(context.db, FEED_ITEMS),
  );
  const { site } = context.content;
  const body = correctionsFeed({
    siteUrl: context.config.siteUrl,
    selfPath: new URL(request.url).pathname,
    title: `${site.name}: Corrections`,
    description: "Corrections our newsroom has published to its stories, newest first.",
    corrections,
  });
  return new Response(body, { headers: rssHeaders([CORRECTIONS_KEY]) });
}
