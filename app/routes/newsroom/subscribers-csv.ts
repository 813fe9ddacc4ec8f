import { listSubscriptions } from "../../../server/newsletter/subscriptions";
import { subscribersCsv } from "../../../server/newsletter/newsroom";
import { requireAdmin } from "../../../server/staff/guard";
import { NEWSROOM_HEADERS, newsroomHeaders } from "../../lib/headers";
import type { Route } from "./+types/subscribers-csv";

/** Also for its data address (`.data`), which the router answers with the route's headers. */
export const headers = newsroomHeaders;

/** The newsletter's subscribers as a CSV file, for admins only (a download, never cached). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const csv = subscribersCsv(await listSubscriptions(context.db));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${day}.csv"`,
      ...NEWSROOM_HEADERS,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
