import { isCategoryKey, FEED_CATEGORIES } from "../../shared/categories";
import { loadConfigOrExit } from "../../server/config";
import { loadContentOrExit } from "../../server/content/load";
import { loadFeedSources } from "../../server/ingest/feeds-config";
import { fetchFeed } from "../../server/ingest/fetch";
import { articlesFromBody, userAgent } from "../../server/ingest/read-feed";
import { DEFAULT_FETCH_OPTIONS } from "../../server/lib/fetch";
import { UsageError, type Command } from "../command";

export const parse: Command = {
  name: "parse",
  summary: "Print a feed's normalised articles as JSON, without storing anything.",
  usage: "news parse <file-or-url> [--category NAME]",
  options: {
    category: {
      type: "string",
      description: `Category key for the articles (default: the feed's own in FEEDS_FILE, else local-news): ${FEED_CATEGORIES.map((c) => c.key).join(", ")}`,
    },
  },
  allowPositionals: true,
  async run({ values, positionals }) {
    const [source, extra] = positionals;
    if (!source || extra) throw new UsageError("Give exactly one file or URL.");
    const config = loadConfigOrExit();
    const category =
      typeof values.category === "string"
        ? values.category
        : configuredCategory(source, config.feedsFile);
    if (!isCategoryKey(category)) throw new UsageError(`Unknown category: ${category}`);
    const result = await fetchFeed(source, {
      ...DEFAULT_FETCH_OPTIONS,
      userAgent: userAgent(config.siteUrl, loadContentOrExit(config.contentDir).site.name),
    });
    if (result.kind !== "ok") {
      console.error(
        `Cannot read ${source}: ${result.kind === "error" ? result.error : "not modified"}`,
      );
      return 1;
    }
    try {
      const { items } = articlesFromBody(result, { url: source, category }, config.siteUrl);
      const articles = items.map((a) => ({
        id: a.id,
        title: a.title,
        excerpt: a.excerpt,
        content: a.content,
        image: a.image,
        category: a.category,
        date: a.date?.toISOString() ?? null,
        author: a.author,
        link: a.link,
      }));
      console.log(JSON.stringify(articles, null, 2));
      return 0;
    } catch (error) {
      console.error(`Cannot read ${source}: ${(error as Error).message.split("\n")[0]}`);
      return 1;
    }
  },
};

/** The category a configured feed is filed under; local-news for any other (or no feeds file). */
function configuredCategory(source: string, feedsFile: string): string {
  try {
    return loadFeedSources(feedsFile).find((feed) => feed.url === source)?.category ?? "local-news";
  } catch {
    return "local-news";
  }
}
