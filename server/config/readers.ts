import { z } from "zod";

// The readers several settings share: what each accepts, and what its error says it must be.

/** A number from `min` to `max`; every error says what it must be, `must`. */
export const numberIn = (min: number, max: number, must: string) =>
  z.coerce.number({ error: must }).min(min, must).max(max, must);

/** A whole number from `min` to `max` (of `unit`s), whose errors say so. */
export function wholeNumber(min: number, max: number, unit?: string) {
  const must = `a whole number ${unit ? `of ${unit} ` : ""}from ${min} to ${max}`;
  return numberIn(min, max, must).int(must);
}

export const port = wholeNumber(1, 65535);

/** `true` or `false`, false when unset. */
export const flag = z
  .enum(["true", "false"], { error: "true or false" })
  .default("false")
  .transform((value) => value === "true");

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
    const url = URL.parse(entry);
    if (!url || url.protocol !== "https:" || entry.replace(/\/$/, "") !== url.origin) {
      ctx.addIssue({ code: "custom", message: ORIGINS_ERROR });
      return z.NEVER;
    }
    origins.push(url.origin);
  }
  return origins;
});
