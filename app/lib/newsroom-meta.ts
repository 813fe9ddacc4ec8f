import type { MetaDescriptor } from "react-router";

/**
 * The head of a staff page of the newsroom: "<title> | Newsroom" ("Newsroom" alone for its home)
 * and a robots rule that keeps it out of every index. (A module of its own, so that the readers'
 * pages' shared chunks do not carry it.)
 */
export function newsroomMeta(title?: string): () => MetaDescriptor[] {
  return () => [
    { title: title ? `${title} | Newsroom` : "Newsroom" },
    { name: "robots", content: "noindex, nofollow" },
  ];
}

/** What a newsroom page says after an action: the message for its `?done=`, if it is one of them. */
export function doneMessage(request: Request, messages: Partial<Record<string, string>>) {
  const done = new URL(request.url).searchParams.get("done");
  return (done !== null && Object.hasOwn(messages, done) ? messages[done] : null) ?? null;
}

/** A newsroom page's address with the query values that are set, in the order given. */
export function addressWith(
  path: string,
  values: Record<string, string | number | false | null | undefined>,
) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
