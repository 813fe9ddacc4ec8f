import fs from "node:fs";
import { z } from "zod";
import { FEED_CATEGORIES, type CategoryKey } from "../../shared/categories";
import { isLocalSource } from "./fetch";

/** One configured feed: where to read it and which category its articles belong to. */
export interface FeedSource {
  /** As written in the feeds file: an http(s) URL, a `file:` URL or a path relative to the working folder. */
  url: string;
  category: CategoryKey;
}

export class FeedsConfigError extends Error {
  constructor(file: string, problem: string) {
    super(`Invalid feeds file ${file}: ${problem}`);
    this.name = "FeedsConfigError";
  }
}

const FEED_KEYS = FEED_CATEGORIES.map((c) => c.key) as [CategoryKey, ...CategoryKey[]];

const feedAddress = z.string().refine(
  (value) => {
    if (isLocalSource(value)) return value.trim().length > 0;
    return ["http:", "https:"].includes(URL.parse(value)?.protocol ?? "");
  },
  { error: "must be an http(s) URL, a file: URL or a path" },
);

const schema = z.record(z.string(), z.array(feedAddress));

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(".");
  return `${where ? `${where}: ` : ""}${issue.message}`;
}

function isFeedKey(key: string): key is CategoryKey {
  return (FEED_KEYS as string[]).includes(key);
}

/** Reads and validates the feeds file; throws FeedsConfigError with a one-line reason. */
export function loadFeedSources(file: string): FeedSource[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new FeedsConfigError(file, (error as Error).message);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FeedsConfigError(file, issue ? describeIssue(issue) : "invalid");
  }
  const unknown = Object.keys(parsed.data).find((key) => !isFeedKey(key));
  if (unknown !== undefined) {
    throw new FeedsConfigError(
      file,
      `unknown category "${unknown}" (known: ${FEED_KEYS.join(", ")})`,
    );
  }
  const sources: FeedSource[] = [];
  const seen = new Set<string>();
  for (const key of FEED_KEYS) {
    for (const url of parsed.data[key] ?? []) {
      if (seen.has(url)) throw new FeedsConfigError(file, `${url} is listed twice`);
      seen.add(url);
      sources.push({ url, category: key });
    }
  }
  return sources;
}
