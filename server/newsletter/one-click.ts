import type express from "express";
import type { Database } from "../db/client";
import { readBody, refuseBody } from "../http/body";
import { unsubscribe } from "./subscriptions";

/** The address every newsletter mail's List-Unsubscribe header names (with `?token=`). */
export const UNSUBSCRIBE_PATH = "/newsletter/unsubscribe";

/** A one-click body is 26 bytes; anything near this is not one. */
const BODY_LIMIT = 4 * 1024;

/**
 * The one-click unsubscribe of RFC 8058: a mail program (Gmail's servers, say) POSTs
 * `List-Unsubscribe=One-Click` to the header's address, with no cookie and from an origin of its
 * own. The token in the address is the proof, and all it can do is take its reader off the list,
 * so this answers before the site's same-origin check for forms. The page's own button posts
 * without `?token=` in the address and goes to the page's action like any form.
 */
export function oneClickUnsubscribe(db: Database): express.RequestHandler {
  return async (req, res, next) => {
    const token = typeof req.query.token === "string" ? req.query.token.slice(0, 200) : "";
    if (!token) return next();
    res.setHeader("Cache-Control", "no-store");
    try {
      // Read here, before the site's own body limit, so it is bounded here too.
      const body = await readBody(req, BODY_LIMIT);
      if (typeof body === "string") {
        refuseBody(res, body, "Too large for a one-click unsubscribe.");
        return;
      }
      const form = await new Request("http://site.invalid/", {
        method: "POST",
        headers: { "content-type": req.get("content-type") ?? "" },
        body: new Uint8Array(body),
      })
        .formData()
        .catch(() => null);
      if (form?.get("List-Unsubscribe") !== "One-Click") {
        res
          .status(400)
          .type("text/plain")
          .send("This address takes a mail program's one-click unsubscribe (RFC 8058) only.");
        return;
      }
      const { unsubscribed } = await unsubscribe(db, token, new Date());
      if (!unsubscribed) {
        res.status(400).type("text/plain").send("This unsubscribe link is not one of ours.");
        return;
      }
      res
        .status(200)
        .type("text/plain")
        .send("Unsubscribed: you will not get the newsletter again.");
    } catch (error) {
      next(error);
    }
  };
}
