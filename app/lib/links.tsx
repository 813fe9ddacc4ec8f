import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  useLocation,
  type LinkProps,
  type NavLinkProps,
} from "react-router";

// React Router's <Link> and <NavLink> resolve their path, read the router's contexts and set up
// click, prefetch and discovery handling: several hooks each, for a page that has 80 of them. On
// the server none of that changes the HTML when the target is a plain site path, so there they
// are rendered as the anchors they would produce, attribute for attribute (links.test.tsx
// compares the two for every kind of link the site renders). The browser gets React Router's own
// components, which hydrate that HTML unchanged and take over navigation.

/**
 * A path React Router renders as it is: from the root, segments of URL-safe characters (none empty,
 * none starting with a dot, so no `.` or `..`), and a query or fragment that is not empty. A literal,
 * so the browser's bundle, which never uses it, drops it.
 */
const PLAIN_PATH =
  /^\/(?:[\w~%!$&'()*+,;=:@-][\w~%!$&'()*+,;=:@.-]*(?:\/[\w~%!$&'()*+,;=:@-][\w~%!$&'()*+,;=:@.-]*)*\/?)?(?:\?[^#]+)?(?:#.+)?$/;

/** Props that make React Router's link differ from a plain anchor in its HTML or its handling. */
const ROUTER_PROPS = [
  "discover",
  "prefetch",
  "relative",
  "reloadDocument",
  "mask",
  "viewTransition",
  "caseSensitive",
] as const;

function isPlain(to: LinkProps["to"], props: object): to is string {
  return (
    typeof to === "string" && PLAIN_PATH.test(to) && !ROUTER_PROPS.some((name) => name in props)
  );
}

export function ServerLink(props: LinkProps) {
  if (!isPlain(props.to, props)) return <RouterLink {...props} />;
  // What only the browser acts on (clicks, history state) leaves no trace in the HTML.
  const {
    to,
    target,
    children,
    onClick: _onClick,
    replace: _replace,
    state: _state,
    preventScrollReset: _preventScrollReset,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    ...anchor
  } = props;
  return (
    <a {...anchor} href={to} target={target} data-discover="true">
      {children}
    </a>
  );
}

/**
 * Whether a NavLink to the plain path `to` is active at `pathname`: React Router's rule,
 * case-insensitive; with `end`, only the path itself (and its trailing-slash form).
 */
export function isActivePath(to: string, pathname: string, end = false): boolean {
  const toPathname = to.replace(/[?#].*$/, "").toLowerCase();
  const locationPathname = pathname.toLowerCase();
  const endSlash =
    toPathname !== "/" && toPathname.endsWith("/") ? toPathname.length - 1 : toPathname.length;
  return (
    locationPathname === toPathname ||
    (!end && locationPathname.startsWith(toPathname) && locationPathname.charAt(endSlash) === "/")
  );
}

export function ServerNavLink(props: NavLinkProps) {
  const location = useLocation();
  if (!isPlain(props.to, props)) return <RouterNavLink {...props} />;
  const {
    "aria-current": ariaCurrent = "page",
    className: classNameProp = "",
    end = false,
    style: styleProp,
    to,
    children,
    ...rest
  } = props;
  // On the server nothing is pending or transitioning.
  const isActive = isActivePath(to, location.pathname, end);
  const state = { isActive, isPending: false, isTransitioning: false };
  const className =
    typeof classNameProp === "function"
      ? classNameProp(state)
      : [classNameProp, isActive ? "active" : null].filter(Boolean).join(" ");
  return (
    <ServerLink
      {...rest}
      aria-current={isActive ? ariaCurrent : undefined}
      className={className}
      style={typeof styleProp === "function" ? styleProp(state) : styleProp}
      to={to}
    >
      {typeof children === "function" ? children(state) : children}
    </ServerLink>
  );
}

/** React Router's `<Link>`: the same HTML, rendered without the router's machinery on the server. */
export const Link = import.meta.env.SSR ? ServerLink : RouterLink;

/** React Router's `<NavLink>`: the same HTML, rendered without the router's machinery on the server. */
export const NavLink = import.meta.env.SSR ? ServerNavLink : RouterNavLink;
