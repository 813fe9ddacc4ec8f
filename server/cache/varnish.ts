import { purgeRequest, type PurgeProvider } from "./purge";

/**
 * Varnish in front of each machine (config/varnish/default.vcl): a `BAN` to each Varnish with the
 * keys, space-separated, in X-Purge-Keys; Varnish bans every object whose Surrogate-Key names one
 * of them. A batch counts as done when every Varnish took it (a ban sent twice does no harm).
 */
export function varnishPurger(urls: readonly string[]): PurgeProvider {
  return {
    name: "varnish",
    // Each ban is one regular expression over the keys: kept short.
    batchSize: 50,
    async send(keys) {
      await Promise.all(
        urls.map(async (url) => {
          const response = await purgeRequest(`Varnish at ${url}`, `${url}/`, {
            method: "BAN",
            headers: { "X-Purge-Keys": keys.join(" ") },
          });
          await response.body?.cancel();
        }),
      );
    },
  };
}
