/**
 * The feedparser conformance cases (kurtmckee/feedparser's test suite, as collected in the shared feed
 * corpus) mapped onto our parse + normalise output. Each case names one feedparser field and its expected
 * value; `evaluate` says how that field maps onto ours. Cases we deliberately do not meet are listed in
 * KNOWN_UNMET with the reason, and the suite fails if any case changes status either way.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseFeedDate } from "./feed-date";
import { authorName, cleanLink, normalizeItem } from "./normalize";
import { FeedParseError, parseFeed } from "./parse";
import { sanitizeHtml, stripTags } from "./sanitize";
import type { ParsedFeed, RawItem } from "./types";

const CORPUS_DIR = process.env.FEED_CORPUS_DIR ?? path.resolve("../shared/feed-corpus");
const CASES_DIR = path.join(CORPUS_DIR, "conformance");
const CASES_FILE = path.join(CASES_DIR, "cases.jsonl");
const exists = existsSync(CASES_FILE);
if (!exists) console.log(`feed corpus not found at ${CASES_DIR}: conformance suite NOT run`);

interface ConformanceCase {
  file: string;
  description: string;
  /** feedparser's field path, e.g. "entries[0].author_detail.email". */
  field: string;
  expected: unknown;
  bozo: boolean | null;
  http?: { url: string; content_type: string; headers: Record<string, string> };
  expected_iso_utc?: string;
}

/** Case file → why we do not meet it. Keep docs/feed-conformance.md in step with this list. */
const KNOWN_UNMET: Record<string, string> = {
  "wellformed__rss__item_author_map_author_detail_email.xml":
    "We keep one display name per author and extract no separate email address (an email is shown only when it is all the feed gives).",
  "wellformed__rss__item_author_map_author_detail_email2.xml":
    "We keep one display name per author and extract no separate email address (an email is shown only when it is all the feed gives).",
  "wellformed__rss__item_author_map_author_detail_email3.xml":
    "We keep one display name per author and extract no separate email address (an email is shown only when it is all the feed gives).",
  "wellformed__rss__item_dc_author_map_author_detail_email.xml":
    "We keep one display name per author and extract no separate email address (an email is shown only when it is all the feed gives).",
  "wellformed__rss__item_dc_creator_map_author_detail_email.xml":
    "We keep one display name per author and extract no separate email address (an email is shown only when it is all the feed gives).",
  "wellformed__atom10__entry_author_email.xml":
    "We keep one display name per author and extract no separate email address (an email is shown only when it is all the feed gives).",
  "wellformed__atom__entry_author_email.xml":
    "We keep one display name per author and extract no separate email address (an email is shown only when it is all the feed gives).",
  "wellformed__atom10__entry_author_uri.xml": "We do not extract author URLs.",
  "wellformed__atom10__entry_author_url.xml": "We do not extract author URLs.",
  "wellformed__base__http_entry_author_url_base_content_location.xml":
    "We do not extract author URLs.",
  "wellformed__base__http_entry_author_url_base_docuri.xml": "We do not extract author URLs.",
  "wellformed__rss__item_content_encoded_type.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__rss__item_fullitem_type.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__rss__item_xhtml_body_type.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__media-rss__item_media_title_type_plain.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__atom10__entry_summary_type_default.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__atom10__entry_summary_type_text.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__atom10__entry_title_type_default.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__atom10__entry_title_type_text.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__atom__entry_content_type.xml":
    "We do not expose content types: every RawItem text field is HTML by contract.",
  "wellformed__rss__item_enclosure_length.xml":
    "We read enclosures only as image candidates; their length is not kept.",
  "wellformed__atom10__entry_link_rel_enclosure_map_enclosure_length.xml":
    "We read enclosures only as image candidates; their length is not kept.",
  "wellformed__rss__item_enclosure_type.xml":
    "We read enclosures only as image candidates; their type is not kept.",
  "wellformed__atom10__entry_link_rel_enclosure_map_enclosure_type.xml":
    "We read enclosures only as image candidates; their type is not kept.",
  "wellformed__atom10__entry_link_rel_enclosure_map_enclosure_url.xml":
    "A video enclosure is not an image, and images are all we take from enclosures.",
  "wellformed__atom10__entry_link_length.xml":
    "We keep one link per item, not the list of links with their attributes.",
  "wellformed__atom10__entry_link_no_rel.xml":
    "We keep one link per item, not the list of links with their rel values.",
  "wellformed__atom10__entry_link_rel.xml":
    "We keep one link per item, not the list of links with their rel values.",
  "wellformed__rss__entity_in_doctype.xml":
    "A DTD that declares entities is refused outright (billion-laughs and XXE defence); the feed is rejected with FeedParseError.",
  "wellformed__base__http_entry_id_base_content_location.xml":
    "Ids (guids) are kept exactly as written: they are identifiers, not links, and resolving them would change article ids.",
  "encoding__bozo_linenoise.xml":
    "feedparser decodes a declared-UTF-8 document with one stray byte as windows-1252 throughout; we keep the valid UTF-8 and read only the stray byte as windows-1252 (’<>”©), which is what the author meant.",
  "wellformed__rss__item_description_not_a_doctype.xml":
    "We read the description exactly as the XML gives it (<!' <a href=\"foo\">); HTML parsers, ours and browsers', read <!' as the start of a bogus comment, so its sanitised form is empty. feedparser's own parser escapes it instead.",
  "wellformed__atom10__entry_title_base64.xml":
    "An Atom 1.0 title or summary is text, html or xhtml only (RFC 4287 §3.1.1): any other type is read as text, never guessed to be base64, which turned plain titles into binary noise. Only content of a non-text, non-XML media type is base64 (§4.1.3.3).",
  "wellformed__atom10__entry_title_base64_2.xml":
    "An Atom 1.0 title or summary is text, html or xhtml only (RFC 4287 §3.1.1): any other type is read as text, never guessed to be base64, which turned plain titles into binary noise. Only content of a non-text, non-XML media type is base64 (§4.1.3.3).",
  "wellformed__atom10__entry_summary_base64.xml":
    "An Atom 1.0 title or summary is text, html or xhtml only (RFC 4287 §3.1.1): any other type is read as text, never guessed to be base64, which turned plain titles into binary noise. Only content of a non-text, non-XML media type is base64 (§4.1.3.3).",
  "wellformed__atom10__entry_summary_base64_2.xml":
    "An Atom 1.0 title or summary is text, html or xhtml only (RFC 4287 §3.1.1): any other type is read as text, never guessed to be base64, which turned plain titles into binary noise. Only content of a non-text, non-XML media type is base64 (§4.1.3.3).",
  "wellformed__sanitize__entry_content_iframe.xml":
    "Everything inside an <iframe> is dropped with it (browsers never render it); feedparser keeps the inner markup.",
  "wellformed__namespace__atommathml.xml":
    "MathML is not on our sanitiser's allowlist; the formula is removed.",
};

const FALLBACK_URL = "https://conformance.invalid/feed.xml";

type Outcome = { pass: true } | { pass: false; detail: string };

function ok(condition: boolean, ours: unknown, expected: unknown): Outcome {
  return condition
    ? { pass: true }
    : { pass: false, detail: `ours ${JSON.stringify(ours)}, expected ${JSON.stringify(expected)}` };
}

/** HTML fields: identical as written, or identical once both pass through our sanitiser. */
function sameHtml(ours: string | null, expected: string, base: string): Outcome {
  if (ours !== null && ours.trim() === expected.trim()) return { pass: true };
  const theirsClean = sanitizeHtml(expected, base);
  if (theirsClean === "" && expected.trim() !== "") {
    return {
      pass: false,
      detail: `our sanitiser removes the expected value ${JSON.stringify(expected)}`,
    };
  }
  const oursClean = ours === null ? null : sanitizeHtml(ours, base);
  return ok(oursClean === theirsClean, oursClean, theirsClean);
}

/** The article as normalised, with a stand-in link when the case's item has none (most have none). */
function articleView(item: RawItem, base: string) {
  const withLink = { ...item, link: item.link ?? "https://conformance.invalid/item" };
  return normalizeItem(withLink, { feedUrl: base, category: "local-news", baseUrl: base });
}

function evaluate(c: ConformanceCase, feed: ParsedFeed, base: string): Outcome {
  const item = feed.items[0];
  if (item === undefined) return { pass: false, detail: "no items" };
  const field = c.field.replace(/^entries\[0\]\./, "");
  const expected = c.expected;
  const text = typeof expected === "string" ? expected : "";

  switch (field) {
    case "title":
    case "title_detail.value": {
      const ours = articleView(item, base)?.title ?? null;
      return ok(ours === stripTags(text), ours, stripTags(text));
    }
    case "author":
    case "author_detail.name": {
      const ours = articleView(item, base)?.author ?? null;
      return ok(ours === authorName(text), ours, authorName(text));
    }
    case "description":
    case "summary":
    case "summary_detail.value":
      // feedparser's summary falls back to the content, as our excerpt does.
      return sameHtml(item.summary ?? item.content, text, base);
    case "content[0].value":
      return sameHtml(item.content, text, base);
    case "link":
    case "links[0].href": {
      const article = normalizeItem(item, { feedUrl: base, category: "local-news", baseUrl: base });
      const theirs = cleanLink(text, base);
      return ok(article?.link === theirs, article?.link ?? null, theirs);
    }
    case "id":
    case "guid":
      return ok(item.guid === text, item.guid, text);
    case "guidislink": {
      const ours = item.link !== null && item.link === item.guid;
      return ok(ours === expected, ours, expected);
    }
    case "published":
    case "updated":
    case "created":
      return ok(item.date === text, item.date, text);
    case "published_parsed":
    case "updated_parsed":
    case "created_parsed": {
      const parsed = item.date === null ? null : parseFeedDate(item.date);
      const ours = parsed?.toISOString().replace(".000Z", "Z") ?? null;
      return ok(ours === c.expected_iso_utc, ours, c.expected_iso_utc);
    }
    case "media_thumbnail[0].url":
    case "enclosures[0].href":
      return ok(item.images.includes(text), item.images, text);
    default: {
      const enclosure = /^enclosures\[\d+\]$/.test(field) ? expected : null;
      if (typeof enclosure === "object" && enclosure !== null && "href" in enclosure) {
        const href = String(enclosure.href);
        return ok(item.images.includes(href), item.images, href);
      }
      return { pass: false, detail: `no counterpart for ${c.field}` };
    }
  }
}

function run(c: ConformanceCase): Outcome {
  const body = readFileSync(path.join(CASES_DIR, c.file));
  const base = c.http?.headers["Content-Location"] ?? c.http?.url ?? FALLBACK_URL;
  let feed: ParsedFeed;
  try {
    feed = parseFeed(body, { contentType: c.http?.content_type ?? null });
  } catch (error) {
    if (error instanceof FeedParseError) return { pass: false, detail: error.message };
    throw error;
  }
  return evaluate(c, feed, base);
}

const cases: ConformanceCase[] = exists
  ? readFileSync(CASES_FILE, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as ConformanceCase)
  : [];

describe.skipIf(!exists)("feedparser conformance cases", () => {
  let passed = 0;

  afterAll(() => {
    console.log(`feed conformance: ${passed} of ${cases.length} cases pass`);
  });

  it("lists only cases that exist", () => {
    const files = new Set(cases.map((c) => c.file));
    expect(Object.keys(KNOWN_UNMET).filter((file) => !files.has(file))).toEqual([]);
  });

  it.each(cases.map((c) => [c.file, c] as const))("%s", (_file, c) => {
    const outcome = run(c);
    if (outcome.pass) passed += 1;
    const reason = KNOWN_UNMET[c.file];
    if (reason !== undefined) {
      expect(outcome.pass, `${c.file} now passes: remove it from KNOWN_UNMET`).toBe(false);
    } else {
      expect(outcome.pass ? "pass" : outcome.detail, c.description).toBe("pass");
    }
  });

  it("passes every case not listed as unmet", () => {
    expect(cases.length - Object.keys(KNOWN_UNMET).length).toBe(
      cases.filter((c) => KNOWN_UNMET[c.file] === undefined).length,
    );
  });
});
