import { readOr503 } from "../../server/news/load";
import { recentForNewsSitemap } from "../../server/seo/queries";
import { newsSitemap } from "../../server/seo/xml";
import type { Route } from "./+types/news-sitemap";
import { XML_HEADERS } from "./sitemap-index";

/** /news-sitemap.xml: the last 48 hours' articles in the Google News format. */
export async function loader({ context }: Route.LoaderArgs) {
  const items = await readOr503(context.logger, "The news sitemap could not be read", () =>
    recentForNewsSitemap(context.db, new Date()),
  );
  return new Response(newsSitemap(context.config.siteUrl, context.content.site.name, items), {
    headers: XML_HEADERS,
  });
}
