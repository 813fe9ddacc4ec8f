import { answerError, connectionError, PURGE_TIMEOUT_MS, type PurgeProvider } from "./purge";

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
          let response: Response;
          try {
            response = await fetch(`${url}/`, {
              method: "BAN",
              headers: { "X-Purge-Keys": keys.join(" ") },
              signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
            });
          } catch (error) {
            throw connectionError(`Varnish at ${url}`, error);
          }
          if (!response.ok) throw await answerError(`Varnish at ${url}`, response);
          await response.body?.cancel();
        }),
      );
    },
  };
}
