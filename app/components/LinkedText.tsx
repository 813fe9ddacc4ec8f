import { Fragment } from "react";
import { Link } from "react-router";

export type TextPart = { kind: "text"; text: string } | { kind: "path"; path: string };

// A site path such as "/contact-us" standing on its own: after the start, a space or "(", and
// before the end, a space or punctuation. "24/7" and "and/or" are not paths.
const SITE_PATH = /(?<=^|[\s(])\/[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*(?=$|[\s).,;:!?])/g;

/** Splits plain text into runs of text and the site paths it mentions. */
export function splitSitePaths(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(SITE_PATH)) {
    const start = match.index;
    if (start > last) parts.push({ kind: "text", text: text.slice(last, start) });
    parts.push({ kind: "path", path: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

/** Plain text from `content/` in which every mention of a page of ours, e.g. "/contact-us", is a link. */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {splitSitePaths(text).map((part, i) =>
        part.kind === "path" ? (
          <Link
            key={i}
            to={part.path}
            className="text-brand underline decoration-1 underline-offset-2 hover:decoration-2"
          >
            {part.path}
          </Link>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
