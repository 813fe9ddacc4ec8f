import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import appCss from "./app.css?url";
import { JsonLd } from "./components/JsonLd";
import { ErrorState } from "./components/ErrorState";
import { Footer } from "./components/Footer";
import { Header } from "./components/Header";
import { NavigationStatus } from "./components/NavigationStatus";
import type { LinkedData, StructuredData, StructuredDataArgs } from "../shared/structured-data";
import { linked, organization, webSite } from "../shared/structured-data";
import type { RouteKeysName } from "../server/cache/route-keys";

/** Every page is cached in front of the site under the site's key too (server/cache/route-keys.ts). */
export const handle = { cacheKeys: "site" satisfies RouteKeysName };

/** The brand colour, for the browser's toolbar. */
const THEME_COLOR = "#083d5c";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/icons/icon-192.png", type: "image/png", sizes: "192x192" },
  { rel: "apple-touch-icon", href: "/icons/icon-180.png" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

/** The page's one JSON-LD graph: the publication, the site, and what the page's routes add. */
function StructuredDataGraph() {
  const matches = useMatches();
  const root = useRouteLoaderData<typeof loader>("root");
  if (!root) return null;
  const { siteUrl } = root;
  const last = matches.at(-1);
  const url = `${siteUrl}${last?.pathname ?? "/"}`;
  const things: LinkedData[] = [...root.structuredData];
  for (const match of matches) {
    const handle = match.handle as { structuredData?: StructuredData<unknown> } | undefined;
    if (!handle?.structuredData) continue;
    const args: StructuredDataArgs<unknown> = { data: match.loaderData, siteUrl, url };
    try {
      things.push(...handle.structuredData(args));
    } catch {
      // A page whose data could not be read (an error page) adds nothing of its own.
    }
  }
  return <JsonLd data={{ "@context": "https://schema.org", "@graph": things }} />;
}

/** Whether the page is the staff's newsroom, which has a header of its own and no reader's chrome. */
function useNewsroomPage(): boolean {
  return useMatches().some(
    (match) => (match.handle as { newsroom?: boolean } | undefined)?.newsroom,
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const site = useRouteLoaderData<typeof loader>("root")?.site;
  const newsroom = useNewsroomPage();
  return (
    <html lang="en-US">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLOR} />
        {/* A stylesheet with a precedence is one of React's resources: it is written at the top of
            the head, before the module preloads <Scripts> adds, so the browser asks for it first. */}
        <link rel="stylesheet" href={appCss} precedence="default" />
        <Meta />
        <Links />
        {site ? (
          <link
            rel="alternate"
            type="application/rss+xml"
            title={`${site.name}: latest stories`}
            href="/rss.xml"
          />
        ) : null}
        {newsroom ? null : <StructuredDataGraph />}
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
        >
          Skip to content
        </a>
        {/* The newsroom's pages draw a header of their own (NewsroomHeader), loaded with them. */}
        {site && !newsroom ? <Header siteName={site.name} /> : null}
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
          {children}
        </main>
        {site && !newsroom ? <Footer site={site} /> : null}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * Public settings every page may need: the public origin, which outside providers are configured,
 * and the site settings (content/site.yaml).
 */
export function loader({ context }: Route.LoaderArgs) {
  const { siteUrl, embeds } = context.config;
  const { site, houseAds, sponsors } = context.content;
  // The breaking banner's text is the home page's alone (routes/home.tsx, where the newsroom's
  // banner may replace it): not shipped in every page's data.
  const { breaking: _homeOnly, ...siteForEveryPage } = site;
  return {
    siteUrl,
    embeds,
    site: siteForEveryPage,
    // What ad slots show with no provider configured, and the sponsor cards of the ad plan.
    ads: { houseAds, sponsors },
    // Worked out here, on the server: the builders never ship to the browser.
    structuredData: linked([organization(siteUrl, site), webSite(siteUrl, site.name)]),
    // Shown on an error page, so a reader can quote it and the logs can find it.
    requestId: context.requestId,
  };
}

export default function App() {
  return (
    <>
      <NavigationStatus />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string"
      ? error.data
      : "An error occurred";
  return <ErrorState message={message} />;
}
