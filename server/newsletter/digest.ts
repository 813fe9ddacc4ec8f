import type { Article } from "../../shared/article";
import { categoryByKey } from "../../shared/categories";
import { variantPath, type ArticlePicture } from "../../shared/picture";
import { sanDiegoFormat } from "../../shared/san-diego-time";
import type { Database } from "../db/client";
import { homeLists } from "../news/home-lists";
import type { MailSite } from "./messages";
import { digestHtml, digestText, type DigestSection, type DigestStory } from "./templates";

/** Stands for each reader's own unsubscribe address in a stored issue until it is sent. */
export const UNSUBSCRIBE_PLACEHOLDER = "%%UNSUBSCRIBE_URL%%";

/** Mail clients take JPEG (not AVIF or WebP), and a 600 px column at most: the 640 px copy. */
const PICTURE_WIDTH = 640;
const EXCERPT_CHARACTERS = 220;

/** Our own JPEG copy of a story's picture, at an absolute address; null when mail cannot show it. */
function mailPicture(picture: ArticlePicture | null, siteUrl: string): DigestStory["picture"] {
  if (!picture) return null;
  if (picture.kind === "site") {
    // The bundled pictures are SVG, which mail clients do not show.
    return null;
  }
  // Copies are never enlarged: a smaller original's "640" copy is made at its own width.
  const width = Math.min(PICTURE_WIDTH, picture.width);
  return {
    url: `${siteUrl}${variantPath(picture.hash, PICTURE_WIDTH, "jpeg")}`,
    width,
    height: Math.round((picture.height * width) / picture.width),
  };
}

function shorten(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= EXCERPT_CHARACTERS) return clean;
  const cut = clean.slice(0, EXCERPT_CHARACTERS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), EXCERPT_CHARACTERS - 40)).trimEnd()}…`;
}

function story(article: Article, siteUrl: string): DigestStory {
  return {
    title: article.title,
    excerpt: shorten(article.excerpt),
    url: `${siteUrl}/article/${encodeURIComponent(article.id)}`,
    picture: mailPicture(article.picture, siteUrl),
  };
}

/**
 * The digest's sections, from the lists the home page shows: today's headlines, then each
 * category's newest that the headlines did not already name.
 */
async function digestSections(db: Database, siteUrl: string): Promise<DigestSection[]> {
  const { headlines, recent } = await homeLists(db);
  const named = new Set(headlines.map((a) => a.id));
  const sections: DigestSection[] = [];
  if (headlines.length > 0) {
    sections.push({
      heading: "Today's Headlines",
      stories: headlines.map((a) => story(a, siteUrl)),
    });
  }
  const byCategory = new Map<string, Article[]>();
  for (const article of recent) {
    if (named.has(article.id)) continue;
    const list = byCategory.get(article.category) ?? [];
    list.push(article);
    byCategory.set(article.category, list);
  }
  for (const articles of byCategory.values()) {
    const first = articles[0];
    if (!first) continue;
    sections.push({
      heading: categoryByKey(first.category).label,
      stories: articles.map((a) => story(a, siteUrl)),
    });
  }
  return sections;
}

export interface RenderedDigest {
  subject: string;
  /** With UNSUBSCRIBE_PLACEHOLDER where each reader's own address goes. */
  html: string;
  text: string;
  stories: number;
}

/** The next digest, or null when there is no story to send. */
export async function renderDigest(
  db: Database,
  site: MailSite,
  now: Date,
): Promise<RenderedDigest | null> {
  const sections = await digestSections(db, site.siteUrl);
  const stories = sections.reduce((n, s) => n + s.stories.length, 0);
  if (stories === 0) return null;
  const day = sanDiegoFormat({ weekday: "long", month: "long", day: "numeric" }).format(now);
  const title = `The day's San Diego stories, ${day}`;
  const fields = {
    siteName: site.siteName,
    siteUrl: site.siteUrl,
    title,
    sections,
    unsubscribeUrl: UNSUBSCRIBE_PLACEHOLDER,
  };
  return {
    subject: `${site.siteName}: ${title}`,
    html: digestHtml(fields),
    text: digestText(fields),
    stories,
  };
}
