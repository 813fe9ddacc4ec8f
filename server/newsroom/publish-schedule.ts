import type { DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";
import { repeatEvery, type Repeating } from "../repeat";
import { publishDuePosts } from "./posts";

/** How often the web process looks for scheduled stories and posts whose time has come. */
const PUBLISH_CHECK_MS = 15_000;

/**
 * Scheduled publishing inside the web process: every PUBLISH_CHECK_MS, the posts whose time has
 * come go live and every process's caches are told. Each due post is taken by one process
 * (publishDuePosts locks it), so every web process on every machine may run this.
 */
export function startPublishSchedule(options: {
  database: DatabaseHandle;
  siteUrl: string;
  logger: Logger;
  checkEveryMs?: number;
  now?: () => Date;
}): Repeating {
  const now = options.now ?? (() => new Date());
  return repeatEvery(
    async () => {
      const { published, purge } = await publishDuePosts(
        options.database.db,
        options.siteUrl,
        now(),
      );
      if (published > 0) {
        await options.database.announceChange(purge);
        options.logger.info({ published }, "scheduled stories and posts published");
      }
    },
    () => options.checkEveryMs ?? PUBLISH_CHECK_MS,
    (error) => options.logger.error({ err: error }, "scheduled posts could not be published"),
  );
}
