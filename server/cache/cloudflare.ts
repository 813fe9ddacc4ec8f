import { PurgeError, purgeRequest, type PurgeProvider } from "./purge";

export interface CloudflareSettings {
  /** The API's base address (https://api.cloudflare.com/client/v4; a local server in tests). */
  apiUrl: string;
  zoneId: string;
  /** An API token with the zone's Cache Purge permission: sent as a bearer token, never logged. */
  token: string;
}

/**
 * Cloudflare's purge by cache tag: `POST /zones/{zone}/purge_cache` with `{"tags": [...]}`. Every
 * plan takes up to 100 tags a request now (Cloudflare's "Purge cache" limits; it was 30 before
 * 2025), and few requests a minute on the free plan, so requests carry as many as they may.
 */
export function cloudflarePurger(settings: CloudflareSettings): PurgeProvider {
  const url = `${settings.apiUrl}/zones/${encodeURIComponent(settings.zoneId)}/purge_cache`;
  return {
    name: "cloudflare",
    batchSize: 100,
    async send(keys) {
      const response = await purgeRequest("Cloudflare", url, {
        method: "POST",
        headers: { Authorization: `Bearer ${settings.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ tags: keys }),
      });
      // A 200 may still say it failed.
      const answer: unknown = await response.json().catch(() => null);
      if (typeof answer !== "object" || answer === null || !("success" in answer)) return;
      if (answer.success !== true) {
        throw new PurgeError(`Cloudflare refused: ${JSON.stringify(answer).slice(0, 200)}`, false);
      }
    },
  };
}
