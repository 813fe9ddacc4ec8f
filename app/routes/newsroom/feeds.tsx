import { redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf } from "../../../server/newsroom/form-input";
import { feedsAction } from "../../../server/newsroom/forms";
import { feedHealthReport } from "../../../server/ingest/feed-health";
import { lastIngest, type JobStart } from "../../../server/newsroom/operations";
import { requireAdmin } from "../../../server/staff/guard";
import { formatStaffTime, NewsroomNotice, PRIMARY_BUTTON } from "../../components/NewsroomNotice";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/feeds";
import { doneMessage, newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Feeds");

const DONE: Partial<Record<JobStart, string>> = {
  started:
    "An ingest pass has started. It reads every feed that is due; reload this page to see what it found.",
  busy: "An ingest pass is already running (here or in another process): nothing was started.",
  failed: "The ingest pass could not start: see the server's log.",
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The totals a finished pass wrote to the audit log, if they are what we expect. */
function passTotals(totals: unknown): string | null {
  if (typeof totals !== "object" || totals === null) return null;
  const t = totals as Record<string, unknown>;
  const n = (key: string) => (typeof t[key] === "number" ? t[key] : 0);
  return `${n("fetched")} fetched, ${n("notModified")} not modified, ${n("failed")} failed, ${n("notDue")} not due; ${n("inserted")} new and ${n("updated")} updated stories`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const [feeds, last] = await Promise.all([
    feedHealthReport(context.db, context.operations.feedSources),
    lastIngest(context.db),
  ]);
  return {
    feeds: feeds.map((f) => ({
      ...f,
      lastAttemptAt: iso(f.lastAttemptAt),
      lastSuccessAt: iso(f.lastSuccessAt),
      nextAttemptAt: iso(f.nextAttemptAt),
    })),
    lastReadAt: iso(last.lastReadAt),
    lastPass: last.lastNewsroomPass
      ? {
          at: last.lastNewsroomPass.at.toISOString(),
          by: last.lastNewsroomPass.by,
          totals: passTotals(last.lastNewsroomPass.totals),
        }
      : null,
    done: doneMessage(request, DONE),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireAdmin(request, context, form);
  // Any other intent is refused (400).
  actionOf(feedsAction, form);
  const started = await context.operations.startIngestPass(session.member);
  throw redirect(`/newsroom/feeds?done=${started}`, 303);
}

const HEALTH_STYLE: Record<string, string> = {
  ok: "bg-green-100 text-green-900",
  WARNING: "bg-amber-100 text-amber-900",
  FAILING: "bg-red-100 text-red-900",
  DEAD: "bg-red-700 text-white",
};

const when = (value: string | null) => (value ? formatStaffTime(value) : "never");

export default function Feeds({ loaderData }: Route.ComponentProps) {
  const { feeds, lastReadAt, lastPass, done } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Feeds</h1>
      <NewsroomNotice done={done} />
      <Panel id="ingest-heading" title="Ingest" boxed>
        <p className="mt-2">
          A feed was last read {lastReadAt ? formatStaffTime(lastReadAt) : "never"} (San Diego
          time).
        </p>
        {lastPass ? (
          <p className="mt-1">
            Last pass started here: {formatStaffTime(lastPass.at)} by {lastPass.by}
            {lastPass.totals ? `: ${lastPass.totals}.` : "."}
          </p>
        ) : null}
        <NewsroomForm intent="ingest" className="mt-3">
          <button type="submit" className={PRIMARY_BUTTON}>
            Start an ingest pass
          </button>
        </NewsroomForm>
        <p className="mt-2 text-sm text-slate-700">
          A pass reads the feeds that are due, as the schedule does, and never runs twice at once.
        </p>
      </Panel>

      <section aria-labelledby="feeds-heading">
        <h2 id="feeds-heading" className="text-xl font-bold">
          {feeds.length} {feeds.length === 1 ? "feed" : "feeds"}
        </h2>
        {feeds.length === 0 ? (
          <p className="mt-2">No feeds fetched yet: start an ingest pass.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200 rounded ring-1 ring-slate-200">
            {feeds.map((feed) => (
              <li key={feed.url} className="flex flex-col gap-1 p-3">
                <p className="flex flex-wrap items-baseline gap-2">
                  <span
                    className={`rounded px-2 py-0.5 text-sm font-bold ${HEALTH_STYLE[feed.health] ?? "bg-slate-100 text-slate-900"}`}
                  >
                    {feed.health}
                  </span>
                  <span className="font-semibold">{feed.title ?? feed.url}</span>
                  <span className="text-sm text-slate-700">{feed.category}</span>
                </p>
                <p className="text-sm break-all text-slate-700">{feed.url}</p>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
                  <dt className="font-semibold">Last result</dt>
                  <dd>
                    {feed.lastResult ?? "-"}
                    {feed.status === null ? "" : ` (HTTP ${feed.status})`}
                  </dd>
                  <dt className="font-semibold">Last success</dt>
                  <dd>{when(feed.lastSuccessAt)}</dd>
                  <dt className="font-semibold">Failures in a row</dt>
                  <dd>{feed.failures}</dd>
                  <dt className="font-semibold">Next attempt</dt>
                  <dd>{when(feed.nextAttemptAt)}</dd>
                  {feed.lastError ? (
                    <>
                      <dt className="font-semibold">Last error</dt>
                      <dd className="break-words">{feed.lastError}</dd>
                    </>
                  ) : null}
                </dl>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
