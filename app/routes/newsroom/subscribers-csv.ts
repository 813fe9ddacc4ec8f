import { listSubscriptions } from "../../../server/mail/subscriptions";
import { subscribersCsv } from "../../../server/newsroom/newsletter";
import { requireAdmin } from "../../../server/staff/guard";
import type { Route } from "./+types/subscribers-csv";

/** The newsletter's subscribers as a CSV file, for admins only (a download, never cached). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const csv = subscribersCsv(await listSubscriptions(context.db));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
