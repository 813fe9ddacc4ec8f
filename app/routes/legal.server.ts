import { pageHead } from "../../server/seo/head";
import type { LoadContext } from "../../server/http/load-context";

/**
 * The loader of the legal pages: the text comes with the page's data, so it is not also shipped
 * as JavaScript.
 */
export function legalLoader(
  { request, context }: { request: Request; context: LoadContext },
  key: "privacyPolicy" | "termsOfService" | "privacy" | "terms",
  seo: { noindex?: boolean } = {},
) {
  const text = context.content[key];
  return {
    text,
    head: pageHead(request, context, { title: text.title, description: text.description, ...seo }),
  };
}
