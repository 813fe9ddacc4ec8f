import { z } from "zod";
import { ConfigError } from "./error";
import { flag, httpUrl, nonEmpty } from "./readers";

const VARNISH_URLS_ERROR =
  "comma-separated Varnish addresses (scheme, host and port), such as http://127.0.0.1:6081";

/** What purges the cache in front of the site (decision 009), a section of config.ts's schema. */
export const purgeVariables = {
  PURGER: z
    .enum(["none", "varnish", "fastly", "cloudflare"], {
      error: "none, varnish, fastly or cloudflare",
    })
    .default("none"),
  VARNISH_URLS: z
    .string()
    .transform((value, ctx) => {
      const urls = value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean);
      if (urls.length === 0 || !urls.every((url) => /^https?:\/\/[^/?#\s]+\/?$/.test(url))) {
        ctx.addIssue({ code: "custom", message: VARNISH_URLS_ERROR });
        return z.NEVER;
      }
      return urls.map((url) => url.replace(/\/$/, ""));
    })
    .optional(),
  FASTLY_API_URL: httpUrl.default("https://api.fastly.com"),
  FASTLY_SERVICE_ID: nonEmpty.optional(),
  FASTLY_API_TOKEN: nonEmpty.optional(),
  FASTLY_SOFT_PURGE: flag,
  CLOUDFLARE_API_URL: httpUrl.default("https://api.cloudflare.com/client/v4"),
  CLOUDFLARE_ZONE_ID: nonEmpty.optional(),
  CLOUDFLARE_API_TOKEN: nonEmpty.optional(),
};

type PurgeVariables = z.output<z.ZodObject<typeof purgeVariables>>;

/** The cache in front of the site and how to purge it; tokens are never logged. */
export type PurgeConfig =
  | { kind: "none" }
  | { kind: "varnish"; urls: string[] }
  | { kind: "fastly"; apiUrl: string; serviceId: string; token: string; soft: boolean }
  | { kind: "cloudflare"; apiUrl: string; zoneId: string; token: string };

/** The purger PURGER names, with the settings it needs: a missing one stops the site. */
export function purgeConfig(v: PurgeVariables): PurgeConfig {
  const required = <T>(variable: string, value: T | undefined): T => {
    if (value === undefined) {
      throw new ConfigError(variable, `set when PURGER is ${v.PURGER}`, undefined);
    }
    return value;
  };
  switch (v.PURGER) {
    case "none":
      return { kind: "none" };
    case "varnish":
      return { kind: "varnish", urls: required("VARNISH_URLS", v.VARNISH_URLS) };
    case "fastly":
      return {
        kind: "fastly",
        apiUrl: v.FASTLY_API_URL,
        serviceId: required("FASTLY_SERVICE_ID", v.FASTLY_SERVICE_ID),
        token: required("FASTLY_API_TOKEN", v.FASTLY_API_TOKEN),
        soft: v.FASTLY_SOFT_PURGE,
      };
    case "cloudflare":
      return {
        kind: "cloudflare",
        apiUrl: v.CLOUDFLARE_API_URL,
        zoneId: required("CLOUDFLARE_ZONE_ID", v.CLOUDFLARE_ZONE_ID),
        token: required("CLOUDFLARE_API_TOKEN", v.CLOUDFLARE_API_TOKEN),
      };
  }
}
