import { HOME_KEY } from "../../shared/cache-keys";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { breakingBanner } from "../db/schema";
import { remembered } from "../news/read-cache";
import {
  MAX_BANNER_DAYS,
  MAX_BANNER_LINK_LENGTH,
  MAX_BANNER_TEXT_LENGTH,
  MIN_BANNER_MINUTES,
} from "../../shared/newsroom";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { tidy } from "./text";

/**
 * The Breaking banner editors set in the newsroom (decision 027): one row at most, shown on the
 * home page until it expires, content/site.yaml's text otherwise. Setting and clearing it are
 * audited and announced like the story actions, so every process's caches drop at once.
 */

export type StoredBanner = typeof breakingBanner.$inferSelect;

/** What the home page shows: staff's banner (with its end) or the site's own text. */
export interface ShownBanner {
  text: string;
  link: string | null;
  /** When staff's banner goes; null for the site's own text, which stays. */
  expiresAt: Date | null;
}

const ONE_ROW = eq(breakingBanner.id, 1);

/** Staff's banner as stored, read afresh (the newsroom's own page shows exactly what is stored). */
export async function bannerRow(db: Database): Promise<StoredBanner | null> {
  const [row] = await db.select().from(breakingBanner).where(ONE_ROW).limit(1);
  return row ?? null;
}

/**
 * Staff's banner as stored, expired or not: one primary-key read, kept in the read cache (emptied
 * by every announced change) so a home page rendered afresh rarely reaches the database.
 */
export const storedBanner = remembered("breakingBanner", bannerRow);

/**
 * The banner the home page shows at `now`: staff's while it has not expired (decided here, not in
 * the query, so a cached read never shows an expired one), else the site's text, else none.
 */
export async function bannerToShow(
  db: Database,
  siteText: string,
  now = new Date(),
): Promise<ShownBanner | null> {
  const stored = await storedBanner(db);
  if (stored && stored.expiresAt.getTime() > now.getTime()) {
    return { text: stored.text, link: stored.link, expiresAt: stored.expiresAt };
  }
  return siteText.trim() === "" ? null : { text: siteText, link: null, expiresAt: null };
}

/** How long a shared cache in front (a CDN) keeps a page, fresh then stale (PAGE_CDN_CACHE_CONTROL). */
const CDN_SECONDS = 60 + 600;

/**
 * The home page's caching headers while staff's banner is about to expire: kept no longer than the
 * banner lasts by our own page cache (`s-maxage`) and a CDN (`CDN-Cache-Control`), and never
 * served stale; browsers revalidate every page anyway. Null when the banner outlives the page's
 * usual life in every cache (the site-wide headers apply): `pageCacheSeconds` in ours, a minute
 * plus ten stale in a CDN.
 */
export function bannerCacheHeaders(
  banner: ShownBanner | null,
  now: Date,
  pageCacheSeconds: number,
): Record<string, string> | null {
  if (!banner?.expiresAt) return null;
  const left = Math.max(1, Math.ceil((banner.expiresAt.getTime() - now.getTime()) / 1000));
  if (left > Math.max(pageCacheSeconds, CDN_SECONDS)) return null;
  return {
    "Cache-Control": `public, no-cache, s-maxage=${left}`,
    "CDN-Cache-Control": `public, max-age=${left}`,
  };
}

/** A control character, NUL among them, written as it is or percent-encoded. */
const CONTROL = /\p{Cc}/u;

/** `text` with its percent-escapes decoded, or as it is when they are not well formed. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const BAD_LINK =
  "Give a link that starts with http:// or https://, or a path on this site such as /local-news.";

/**
 * The banner's link as stored: an http(s) address, or a path on this site (`/…`, never `//…`,
 * which browsers read as another host); null for none. Anything else (javascript:, data:, a
 * relative word, a control character such as NUL, even percent-encoded) is refused.
 */
export function bannerLink(input: string): { ok: true; link: string | null } | { ok: false } {
  const link = input.trim();
  if (link === "") return { ok: true, link: null };
  if (link.length > MAX_BANNER_LINK_LENGTH || /[\s\\<>"'`]/.test(link)) return { ok: false };
  if (CONTROL.test(link) || CONTROL.test(decoded(link))) return { ok: false };
  if (link.startsWith("/")) {
    if (link.startsWith("//")) return { ok: false };
    const base = "http://site.invalid";
    const url = URL.parse(link, base);
    return url && url.origin === base ? { ok: true, link } : { ok: false };
  }
  const url = URL.parse(link);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return { ok: false };
  if (url.hostname === "" || url.username !== "" || url.password !== "") return { ok: false };
  return { ok: true, link: url.href };
}

const described = (banner: StoredBanner | null) =>
  banner && {
    text: banner.text,
    link: banner.link,
    expiresAt: banner.expiresAt.toISOString(),
  };

/** Puts staff's banner up (replacing any), until `expiresAt`. */
export function setBanner(
  services: NewsroomServices,
  actor: Actor,
  input: { text: string; link: string; expiresAt: Date | null },
  now = new Date(),
): Promise<ActionResult> {
  const text = tidy(input.text);
  if (text.length < 3) return Promise.resolve(fail("Write the banner's text."));
  if (text.length > MAX_BANNER_TEXT_LENGTH) {
    return Promise.resolve(fail(`Keep the text under ${MAX_BANNER_TEXT_LENGTH} characters.`));
  }
  const link = bannerLink(input.link);
  if (!link.ok) return Promise.resolve(fail(BAD_LINK));
  const expiresAt = input.expiresAt;
  if (!expiresAt || Number.isNaN(expiresAt.getTime())) {
    return Promise.resolve(fail("Give the date and time the banner ends (San Diego time)."));
  }
  if (expiresAt.getTime() < now.getTime() + MIN_BANNER_MINUTES * 60_000) {
    return Promise.resolve(
      fail(`Give an end at least ${MIN_BANNER_MINUTES} minutes from now (San Diego time).`),
    );
  }
  if (expiresAt.getTime() > now.getTime() + MAX_BANNER_DAYS * 86_400_000) {
    return Promise.resolve(fail(`A banner lasts at most ${MAX_BANNER_DAYS} days.`));
  }
  return act(services, async (tx) => {
    const before = await bannerRow(tx);
    const values = { text, link: link.link, expiresAt, setBy: actor.email, setAt: now };
    await tx
      .insert(breakingBanner)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: breakingBanner.id, set: values });
    // The banner is the home page's alone (app/root.tsx keeps it out of every other page).
    return audited(tx, actor, "The banner is up on the home page.", [HOME_KEY], {
      action: "banner.set",
      subject: "breaking-banner",
      before: described(before),
      after: { text, link: link.link, expiresAt: expiresAt.toISOString() },
    });
  });
}

/** Takes staff's banner down: the home page shows the site's own text again (or none). */
export function clearBanner(services: NewsroomServices, actor: Actor): Promise<ActionResult> {
  return act(services, async (tx) => {
    const before = await bannerRow(tx);
    if (!before) return fail("There is no banner of the newsroom's to clear.");
    await tx.delete(breakingBanner).where(ONE_ROW);
    return audited(tx, actor, "The banner is cleared.", [HOME_KEY], {
      action: "banner.clear",
      subject: "breaking-banner",
      before: described(before),
      after: null,
    });
  });
}
