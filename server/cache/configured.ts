import type { PurgeConfig } from "../config";
import { cloudflarePurger } from "./cloudflare";
import { fastlyPurger } from "./fastly";
import { noPurger, purgeQueue, type Purger, type PurgeQueueOptions } from "./purge";
import { varnishPurger } from "./varnish";

/** The purger PURGER names, sending in the background (server/cache/purge.ts). */
export function purgerFor(config: PurgeConfig, options: PurgeQueueOptions): Purger {
  switch (config.kind) {
    case "none":
      return noPurger;
    case "varnish":
      return purgeQueue(varnishPurger(config.urls), options);
    case "fastly":
      return purgeQueue(fastlyPurger(config), options);
    case "cloudflare":
      return purgeQueue(cloudflarePurger(config), options);
  }
}
