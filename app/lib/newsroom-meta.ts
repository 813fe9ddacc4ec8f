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
