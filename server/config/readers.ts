import { z } from "zod";

// The readers several settings share: what each accepts, and what its error says it must be.

export const port = z.coerce
  .number({ error: "a whole number from 1 to 65535" })
  .int("a whole number from 1 to 65535")
  .min(1, "a whole number from 1 to 65535")
  .max(65535, "a whole number from 1 to 65535");

export const httpUrl = z
  .url({ protocol: /^https?$/, error: "an absolute http:// or https:// URL" })
  .transform((value) => value.replace(/\/+$/, ""));

export const postgresUrl = z
  .url({ protocol: /^postgres(ql)?$/, error: "a postgres:// or postgresql:// URL" })
  .optional();

export const nonEmpty = z.string().trim().min(1, "a non-empty value");

export const optionalHttpsUrl = z
  .url({ protocol: /^https?$/, error: "an absolute http:// or https:// URL" })
  .optional();

const ORIGINS_ERROR =
  "comma-separated https origins, such as https://ads.example.net,https://cdn.example.net";

/** A list of https origins (scheme, host and port, nothing after them), comma-separated. */
export const httpsOrigins = z.string().transform((value, ctx) => {
  const origins: string[] = [];
  for (const entry of value.split(",").map((part) => part.trim())) {
    if (!entry) continue;
    const url = URL.canParse(entry) ? new URL(entry) : null;
    if (!url || url.protocol !== "https:" || entry.replace(/\/$/, "") !== url.origin) {
      ctx.addIssue({ code: "custom", message: ORIGINS_ERROR });
      return z.NEVER;
    }
    origins.push(url.origin);
  }
  return origins;
});
