import type { BlogConfig } from "../config";
import type { Logger } from "../logger";
import { createHostedBlogSource } from "./hosted";
import { createLocalBlogSource } from "./local";
import type { BlogSource } from "./source";

/** The blog source the configuration names (BLOG_SOURCE). */
export function createBlogSource(config: BlogConfig, siteUrl: string, logger: Logger): BlogSource {
  return config.source === "local"
    ? createLocalBlogSource(config.dir, { siteUrl, logger })
    : createHostedBlogSource({ apiUrl: config.apiUrl, apiKey: config.apiKey, siteUrl });
}
