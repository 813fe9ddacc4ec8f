import { useContext, type ComponentPropsWithoutRef, type ReactNode } from "react";
import { UNSAFE_LocationContext as LocationContext } from "react-router";

/** React's `renderToString`, handed over by the server entry: the browser never gets one. */
type RenderToString = (node: ReactNode) => string;

let renderToString: RenderToString | null = null;

/** The HTML of each variant of each prerendered element, rendered once. */
const rendered = new Map<string, string>();
/** Variants are few (a header per active section, a footer per year); a bound all the same. */
const VARIANTS_KEPT = 256;

/** Called once by the server entry (app/entry.server.tsx); `null` renders every page in full. */
export function prerenderWith(render: RenderToString | null): void {
  renderToString = render;
  rendered.clear();
}

type Props<Tag extends "header" | "footer"> = Omit<
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
 * An element whose children render to the same HTML on many pages (the site's header and footer):
 * on the server they are rendered once per `variant` and that HTML reused, for about a sixth less
 * work per page (decision 016). In the browser, and wherever no renderer was handed over, the
 * children render as usual; hydration finds the HTML they produce, since it is the same.
 *
 * The children are rendered apart from the page, with only the router's location: they may use
 * links, NavLinks and plain forms, and no other context, state that differs by page, or useId.
 */
export const Prerendered = import.meta.env.SSR ? ServerPrerendered : BrowserPrerendered;

function BrowserPrerendered<Tag extends "header" | "footer">({
  as,
  variant: _variant,
  children,
  ...props
}: Props<Tag>) {
  const Tag = as as "header";
  return <Tag {...props}>{children()}</Tag>;
}

function ServerPrerendered<Tag extends "header" | "footer">({
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
    if (rendered.size < VARIANTS_KEPT) rendered.set(key, html);
  }
  return <Tag {...props} dangerouslySetInnerHTML={{ __html: html }} />;
}
