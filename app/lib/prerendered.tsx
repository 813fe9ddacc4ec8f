import { useContext, type ComponentPropsWithoutRef, type ReactNode } from "react";
import { UNSAFE_LocationContext as LocationContext } from "react-router";

/** React's `renderToString`, handed over by the server entry: the browser never gets one. */
type RenderToString = (node: ReactNode) => string;

let renderToString: RenderToString | null = null;

/** The elements that may be prerendered: the page's header and footer, story cards and slides. */
type PrerenderedTag = "header" | "footer" | "article" | "li";

/**
 * The HTML of each variant of each prerendered element, rendered once; null for children that
 * render with their page (HOISTED).
 */
const rendered = new Map<string, string | null>();
/**
 * A header per current section and a footer per year, and a card and a slide per article as it
 * stands: ~1.5 KB each, so at most a few megabytes. When full, all are dropped and rendered anew
 * as pages ask for them (articles that changed leave variants no page names any more).
 */
const VARIANTS_KEPT = 2048;

/**
 * What React puts in a page's head wherever it is rendered (an eager or high-priority image's
 * preload, a title, a stylesheet) comes out first when children are rendered apart, with no head
 * to go to: such children render with their page instead.
 */
const HOISTED = /^<(?:link|meta|title|style|script|base)\b/;

/** Called once by the server entry (app/entry.server.tsx); `null` renders every page in full. */
export function prerenderWith(render: RenderToString | null): void {
  renderToString = render;
  rendered.clear();
}

type Props<Tag extends PrerenderedTag> = Omit<
  ComponentPropsWithoutRef<Tag>,
  "children" | "dangerouslySetInnerHTML"
> & {
  as: Tag;
  /**
   * Names everything the children's HTML depends on: children rendered for one variant are the
   * same HTML on every page that names it.
   */
  variant: string;
  children: () => ReactNode;
};

/**
 * An element whose children render to the same HTML on many pages (the site's header and footer,
 * an article's card and slide): on the server they are rendered once per `variant` and that HTML
 * reused, for about a sixth less work per page for the header and footer and as much again for the
 * stories of a list (decision 016). In the browser, and wherever no renderer was handed over, the
 * children render as usual; hydration finds the HTML they produce, since it is the same.
 *
 * The children are rendered apart from the page, with only the router's location: they may use
 * links, NavLinks and plain forms, and no other context, state that differs by page, or useId.
 * Children with something React puts in the page's head (an image it preloads: eager or of high
 * priority) are rendered with their page, once the first rendering apart has shown it.
 */
export const Prerendered = import.meta.env.SSR ? ServerPrerendered : BrowserPrerendered;

function BrowserPrerendered<Tag extends PrerenderedTag>({
  as,
  variant: _variant,
  children,
  ...props
}: Props<Tag>) {
  const Tag = as as "header";
  return <Tag {...props}>{children()}</Tag>;
}

function ServerPrerendered<Tag extends PrerenderedTag>({
  as,
  variant,
  children,
  ...props
}: Props<Tag>) {
  const location = useContext(LocationContext);
  const Tag = as as "header";
  if (!renderToString) return <Tag {...props}>{children()}</Tag>;
  const key = `${as}:${variant}`;
  let html = rendered.get(key);
  if (html === undefined) {
    html = renderToString(
      <LocationContext.Provider value={location}>{children()}</LocationContext.Provider>,
    );
    if (HOISTED.test(html)) html = null;
    if (rendered.size >= VARIANTS_KEPT) rendered.clear();
    rendered.set(key, html);
  }
  if (html === null) return <Tag {...props}>{children()}</Tag>;
  return <Tag {...props} dangerouslySetInnerHTML={{ __html: html }} />;
}
