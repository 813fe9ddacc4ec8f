import { createBlogSource } from "../server/blog/create-source";
import { withNewsroomPosts } from "../server/blog/with-newsroom";
import type { Config } from "../server/config";
import { loadContent } from "../server/content/load";
import type { DatabaseHandle } from "../server/db/client";
import { formLimiter } from "../server/forms/guard";
import type { LoadContext } from "../server/http/load-context";
import { inlinePictureMaker } from "../server/images/picture-maker";
import { folderPictureStore } from "../server/images/store";
import type { Logger } from "../server/logger";
import { newsletterMailFor } from "../server/newsletter/signup";
import { newsroomOperations } from "../server/newsroom/operations";

/**
 * The context a benchmark renders pages with (bench:render, bench:growth), as the web process sets
 * it up, less what a render never uses: no feed sources for a pass, no mail sent, no pictures read
 * (a folder that is never written) or made. Import it after React's production build is chosen, as the
 * server modules it loads import React.
 */
export function pageContext(config: Config, database: DatabaseHandle, logger: Logger): LoadContext {
  const content = loadContent(config.contentDir);
  const mail = newsletterMailFor(config, content.site.name);
  return {
    config,
    db: database.db,
    announceChange: () => database.announceChange(),
    logger,
    blog: withNewsroomPosts(database.db, createBlogSource(config.blog, config.siteUrl, logger), {
      logger,
    }),
    content,
    formLimiter: formLimiter(config.formRateLimit),
    mail,
    operations: newsroomOperations({
      database,
      logger,
      pass: { siteUrl: config.siteUrl, siteName: content.site.name, sources: [], concurrency: 1 },
      mail,
    }),
    clientAddress: "127.0.0.1",
    requestId: "bench",
    pictures: folderPictureStore({ dir: "/nonexistent/pictures", maxBytes: 1 }),
    pictureMaker: inlinePictureMaker(),
  };
}
