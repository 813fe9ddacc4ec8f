import { purgeRequest, type PurgeProvider } from "./purge";

export interface FastlySettings {
  /** The API's base address (https://api.fastly.com; a local server in tests). */
  apiUrl: string;
  serviceId: string;
  /** The API token (FASTLY_API_TOKEN): sent in Fastly-Key, never logged. */
  token: string;
  /** Marks pages stale rather than removing them, so Fastly may serve them while it fetches anew. */
  soft: boolean;
}

/**
 * Fastly's purge by surrogate key: `POST /service/{id}/purge` with the keys, space-separated, in
 * a Surrogate-Key header, at most 256 a request.
 */
export function fastlyPurger(settings: FastlySettings): PurgeProvider {
  const url = `${settings.apiUrl}/service/${encodeURIComponent(settings.serviceId)}/purge`;
  return {
    name: "fastly",
    batchSize: 256,
    async send(keys) {
      const headers: Record<string, string> = {
        "Fastly-Key": settings.token,
        "Surrogate-Key": keys.join(" "),
        Accept: "application/json",
      };
      if (settings.soft) headers["Fastly-Soft-Purge"] = "1";
      const response = await purgeRequest("Fastly", url, { method: "POST", headers });
      await response.body?.cancel();
    },
  };
}
