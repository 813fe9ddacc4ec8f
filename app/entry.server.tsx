// React Router's default server entry for Node (@react-router/dev 7.18.4), unchanged but for one
// thing: it gives the router only the routes a page can name (app/lib/initial-routes.ts, decision
// 017). Keep it in step with the default on upgrades.
import { PassThrough } from "node:stream";

import type { AppLoadContext, EntryContext } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { withInitialRoutes } from "./lib/initial-routes";

export const streamTimeout = 5_000;

/**
 * The default entry's document render, with the router's context passed through `prepare` first.
 * The site renders with `withInitialRoutes`; a test renders with the context as it comes too and
 * compares the pages.
 */
export function documentRenderer(prepare: (context: EntryContext) => EntryContext) {
  return function handleRequest(
    request: Request,
    responseStatusCode: number,
    responseHeaders: Headers,
    routerContext: EntryContext,
    _loadContext: AppLoadContext,
  ): Response | Promise<Response> {
    // https://httpwg.org/specs/rfc9110.html#HEAD
    if (request.method.toUpperCase() === "HEAD") {
      return new Response(null, {
        status: responseStatusCode,
        headers: responseHeaders,
      });
    }

    return new Promise<Response>((resolve, reject) => {
      let shellRendered = false;
      const userAgent = request.headers.get("user-agent");

      // Requests from bots and SPA Mode renders wait for all content to load before responding.
      const readyOption: keyof RenderToPipeableStreamOptions =
        (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

      // Abort the rendering stream after the `streamTimeout` so it has time to flush down the
      // rejected boundaries.
      let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
        () => abort(),
        streamTimeout + 1000,
      );

      const { pipe, abort } = renderToPipeableStream(
        <ServerRouter context={prepare(routerContext)} url={request.url} />,
        {
          [readyOption]() {
            shellRendered = true;
            const body = new PassThrough({
              final(callback) {
                // Clear the timeout to prevent retaining the closure and memory leak.
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
            // Log streaming rendering errors from inside the shell. Errors in the initial shell
            // reject and are logged by handleDocumentRequest.
            if (shellRendered) {
              console.error(error);
            }
          },
        },
      );
    });
  };
}

export default documentRenderer(withInitialRoutes);
