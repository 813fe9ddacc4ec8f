import { purgerFor } from "../../server/cache/configured";
import { loadConfigOrExit } from "../../server/config";
import { createLogger } from "../../server/logger";
import { UsageError, type Command } from "../command";

const KEY = /^[a-z0-9_-]{1,100}$/;

/**
 * Purges keys from the cache in front by hand, as the site's changes do (decision 009): `site`
 * after a deploy, whose pages name assets the new build no longer has.
 */
export const purgeCommand: Command = {
  name: "purge",
  summary: "Purge pages from the CDN or Varnish in front by key (site: every page), with PURGER.",
  usage: "news purge <key> [<key> ...]   (keys such as site, home, category-sports, article-<id>)",
  options: {},
  allowPositionals: true,
  async run({ positionals }) {
    if (positionals.length === 0) throw new UsageError("Name at least one key, such as site.");
    const wrong = positionals.find((key) => !KEY.test(key));
    if (wrong !== undefined) {
      throw new UsageError(`"${wrong}" is not a key: lower-case letters, digits, - and _.`);
    }
    const config = loadConfigOrExit();
    if (config.purge.kind === "none") {
      console.log("PURGER is none: there is no cache in front to purge.");
      return 0;
    }
    let failed = 0;
    const purger = purgerFor(config.purge, {
      logger: createLogger(config.logLevel),
      settleMs: 0,
      observe: (_provider, outcome) => {
        if (outcome === "failed") failed++;
      },
    });
    purger.purge(positionals);
    await purger.idle();
    if (failed > 0) {
      console.error(`The purge failed (${config.purge.kind}); the log says why.`);
      return 1;
    }
    console.log(`Purged ${positionals.join(", ")} (${config.purge.kind}).`);
    return 0;
  },
};
