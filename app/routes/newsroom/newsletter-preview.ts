import { renderDigest, UNSUBSCRIBE_PLACEHOLDER } from "../../../server/newsletter/digest";
import { unsubscribeUrl } from "../../../server/newsletter/messages";
import { requireAdmin } from "../../../server/staff/guard";
import { NEWSROOM_HEADERS, newsroomHeaders } from "../../lib/headers";
import type { Route } from "./+types/newsletter-preview";

/** Also for its data address (`.data`), which the router answers with the route's headers. */
export const headers = newsroomHeaders;

/** The next digest's HTML part as readers get it (with a sample unsubscribe link), for admins. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const digest = await renderDigest(context.db, context.mail.site, new Date());
  if (!digest) {
    return new Response("There is no story to send yet.", {
      status: 404,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        ...NEWSROOM_HEADERS,
      },
    });
  }
  const sample = unsubscribeUrl(context.mail.site, "preview");
  return new Response(digest.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, sample), {
    headers: { "Content-Type": "text/html; charset=utf-8", ...NEWSROOM_HEADERS },
  });
}
