import type { BlogConfig, Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import { createHostedBlogSource } from "./hosted";
import { createLocalBlogSource } from "./local";
import type { BlogSource } from "./source";
import { withNewsroomPosts } from "./with-newsroom";

/** The blog source the configuration names (BLOG_SOURCE). */
export function createBlogSource(config: BlogConfig, siteUrl: string, logger: Logger): BlogSource {
  return config.source === "local"
    ? createLocalBlogSource(config.dir, { siteUrl, logger })
    : createHostedBlogSource({ apiUrl: config.apiUrl, apiKey: config.apiKey, siteUrl });
}

/** The blog as the site lists it: the configured one with the newsroom's posts (decision 028). */
export function siteBlog(db: Database, config: Config, logger: Logger): BlogSource {
  return withNewsroomPosts(db, createBlogSource(config.blog, config.siteUrl, logger), { logger });
}
