// React Router's default server entry for Node (@react-router/dev 7.18.4), unchanged, with its
// documented `handleError` added: errors React Router meets go to the request's JSON log line, and
// the page's cache keys, which its matched routes declare (`handle.cacheKeys`, decision 009); and
// the render's CSP nonce given to React and to `ServerRouter`, which gives it to `<Scripts>`,
// `<ScrollRestoration>` and `<Links>` (decision 019).
// Compare with node_modules/@react-router/dev/dist/config/defaults/entry.server.node.tsx on upgrades.
import { PassThrough } from "node:stream";

import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { routeCacheKeys } from "../server/cache/route-keys";
import { cacheKeyHeaders } from "../shared/cache-keys";

export const streamTimeout = 5_000;

/**
 * React Router's documented hook for errors met while answering (its default prints each to
 * stderr with a stack). A client's mistake it answers itself (a POST to a page without a form,
 * 405; an unknown address, 404) is one line in the request's JSON log at warn; anything else is an
 * error there, with its stack.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const logger = (context as AppLoadContext).logger;
  if (isRouteErrorResponse(error) && error.status < 500) {
    const detail = typeof error.data === "string" ? error.data : undefined;
    logger.warn({ status: error.status, method: request.method, detail }, error.statusText);
  } else {
    logger.error({ err: error }, "the page could not be answered");
  }
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // The keys a CDN keeps the page under: from the routes that answered and their loaders' data.
  const { matches, loaderData } = routerContext.staticHandlerContext;
  const keys = routeCacheKeys(
    matches.map((match) => ({
      handle: routerContext.routeModules[match.route.id]?.handle,
      params: match.params,
      data: loaderData[match.route.id],
    })),
  );
  // A page no shared cache keeps (an error, the newsroom's private pages) names nothing.
  const kept = !/\b(?:private|no-store)\b/.test(responseHeaders.get("Cache-Control") ?? "");
  if (responseStatusCode === 200 && kept) {
    for (const [name, value] of Object.entries(cacheKeyHeaders(keys))) {
      responseHeaders.set(name, value);
    }
  }

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              // Clear the timeout to prevent retaining the closure and memory leak
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);

          responseHeaders.set("Content-Type", "text/html");

          pipe(body);

          resolve(
            new Response(stream, {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) {
            console.error(error);
          }
        },
      },
    );
  });
}
