import { Form, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf } from "../../../server/newsroom/form-input";
import { newsletterAction } from "../../../server/newsroom/forms";
import { renderDigest, UNSUBSCRIBE_PLACEHOLDER } from "../../../server/newsletter/digest";
import {
  recentIssues,
  subscriberCounts,
  subscriberPage,
  todaysDigest,
} from "../../../server/newsletter/newsroom";
import type { JobStart } from "../../../server/newsroom/operations";
import { requireAdmin } from "../../../server/staff/guard";
import {
  BUTTON,
  formatStaffTime,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "../../components/NewsroomNotice";
import { PageLinks } from "../../components/PageLinks";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/newsletter";
import { doneMessage, newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Newsletter");

const DONE: Record<JobStart, string> = {
  started:
    "Today's digest is being sent to the confirmed readers who have not had it. Reload this page to follow it.",
  busy: "The digest is being sent now (here or by another process): nothing more was started.",
  "sent-already": "Today's digest has already gone to every confirmed reader.",
  "no-story": "There is no story to send yet.",
  failed: "The digest could not be sent: see the server's log.",
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const pageAsked = Number(url.searchParams.get("page")) || 1;
  const now = new Date();
  const [counts, list, issues, today, digest] = await Promise.all([
    subscriberCounts(context.db),
    subscriberPage(context.db, Math.min(100_000, Math.max(1, Math.floor(pageAsked)))),
    recentIssues(context.db),
    todaysDigest(context.db, now),
    renderDigest(context.db, context.mail.site, now),
  ]);
  return {
    counts,
    today,
    // "Send today's digest now" asks first, on this page (a GET, so it needs no JavaScript).
    confirming: url.searchParams.get("confirm") === "send",
    subscribers: list.rows.map((s) => ({
      email: s.email,
      state: s.suppressed === "bounced" ? "bounced" : s.status,
      createdAt: s.createdAt.toISOString(),
      confirmedAt: iso(s.confirmedAt),
      unsubscribedAt: iso(s.unsubscribedAt),
    })),
    total: list.total,
    page: list.page,
    pages: list.pages,
    issues: issues.map((i) => ({
      ...i,
      createdAt: i.createdAt.toISOString(),
      completedAt: iso(i.completedAt),
    })),
    preview: digest
      ? {
          subject: digest.subject,
          stories: digest.stories,
          text: digest.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, "(each reader's own address)"),
        }
      : null,
    done: doneMessage(request, DONE),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireAdmin(request, context, form);
  // Any other intent is refused (400).
  actionOf(newsletterAction, form);
  const started = await context.operations.startDigest(session.member);
  throw redirect(`/newsroom/newsletter?done=${started}`, 303);
}

const pageLink = (page: number) => `/newsroom/newsletter${page > 1 ? `?page=${page}` : ""}`;
const when = (value: string | null) => (value ? formatStaffTime(value) : "");

export default function Newsletter({ loaderData }: Route.ComponentProps) {
  const { counts, today, confirming, subscribers, total, page, pages, issues, preview, done } =
    loaderData;
  const numbers: [string, number][] = [
    ["Confirmed", counts.confirmed],
    ["Pending", counts.pending],
    ["Unsubscribed", counts.unsubscribed],
    ["Suppressed: unsubscribed", counts.suppressed.unsubscribed],
    ["Suppressed: bounced", counts.suppressed.bounced],
  ];
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Newsletter</h1>
      <NewsroomNotice done={done} />

      <Panel id="counts-heading" title="Subscribers">
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5">
          {numbers.map(([label, n]) => (
            <div key={label} className="rounded p-3 ring-1 ring-slate-200">
              <dt className="text-sm text-slate-700">{label}</dt>
              <dd className="text-2xl font-bold">{n}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3">
          <a
            href="/newsroom/newsletter/subscribers.csv"
            download
            className="font-semibold text-brand underline"
          >
            Download the subscribers (CSV)
          </a>
        </p>
      </Panel>

      <Panel id="digest-heading" title="Today's digest" boxed>
        <DigestButton today={today} confirming={confirming} />
        {issues.length > 0 ? (
          <>
            <h3 className="mt-4 font-bold">Last issues</h3>
            <ul className="mt-2 flex flex-col gap-2 text-sm">
              {issues.map((issue) => (
                <li key={issue.id}>
                  <span className="font-semibold">{issue.key}</span>: made{" "}
                  {formatStaffTime(issue.createdAt)},{" "}
                  {issue.completedAt
                    ? `finished ${formatStaffTime(issue.completedAt)}`
                    : "being sent"}
                  ; {issue.deliveries.sent} sent, {issue.deliveries.queued} queued,{" "}
                  {issue.deliveries.bounced} bounced, {issue.deliveries.failed} failed,{" "}
                  {issue.deliveries.skipped} skipped
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <h3 className="mt-4 font-bold">The next digest</h3>
        {preview ? (
          <>
            <p className="mt-1">
              {preview.subject} ({preview.stories} stories).{" "}
              <a href="/newsroom/newsletter/preview" className="font-semibold text-brand underline">
                Open it as readers see it
              </a>
            </p>
            <details className="mt-2 rounded bg-slate-50 p-3 ring-1 ring-slate-200">
              <summary className="cursor-pointer font-semibold">Its plain-text part</summary>
              <pre className="mt-2 text-sm break-words whitespace-pre-wrap">{preview.text}</pre>
            </details>
          </>
        ) : (
          <p className="mt-1">There is no story to send yet.</p>
        )}
      </Panel>

      <section aria-labelledby="list-heading">
        <h2 id="list-heading" className="text-xl font-bold">
          {total} {total === 1 ? "address" : "addresses"}, newest first
        </h2>
        {subscribers.length === 0 ? (
          <p className="mt-2">Nobody has signed up yet.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-slate-300">
                  <th scope="col" className="py-2 pr-3">
                    E-mail
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    State
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 sm:table-cell">
                    Signed up
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 sm:table-cell">
                    Confirmed
                  </th>
                  <th scope="col" className="hidden py-2 sm:table-cell">
                    Left
                  </th>
                </tr>
              </thead>
              <tbody>
                {subscribers.map((s) => (
                  <tr key={s.email} className="border-b border-slate-200 align-top">
                    <td className="py-2 pr-3">
                      <span className="break-all">{s.email}</span>
                      {/* On a phone the dates go under the address. */}
                      <span className="block text-slate-700 sm:hidden">
                        Signed up {when(s.createdAt)}
                        {s.confirmedAt ? `; confirmed ${when(s.confirmedAt)}` : ""}
                        {s.unsubscribedAt ? `; left ${when(s.unsubscribedAt)}` : ""}
                      </span>
                    </td>
                    <td className="py-2 pr-3">{s.state}</td>
                    <td className="hidden py-2 pr-3 sm:table-cell">{when(s.createdAt)}</td>
                    <td className="hidden py-2 pr-3 sm:table-cell">{when(s.confirmedAt)}</td>
                    <td className="hidden py-2 sm:table-cell">{when(s.unsubscribedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <PageLinks
          label="Pages of subscribers"
          page={page}
          pages={pages}
          href={pageLink}
          previous="Previous page"
          next="Next page"
          className="mt-4 flex items-center gap-4"
          linkClassName="underline"
        />
      </section>
    </div>
  );
}

const readers = (n: number) => `${n} confirmed ${n === 1 ? "reader" : "readers"}`;

/**
 * "Send today's digest now", which asks first (a page of its own, `?confirm=send`, like the inbox's
 * delete), and says so instead when every confirmed reader has had today's digest.
 */
function DigestButton({
  today,
  confirming,
}: {
  today: Route.ComponentProps["loaderData"]["today"];
  confirming: boolean;
}) {
  if (today.state !== "not-made" && today.readers === 0) {
    return (
      <p role="status" className="mt-2 font-semibold">
        {today.state === "sent"
          ? "Today's digest has already gone to every confirmed reader."
          : "Today's digest is being sent to every confirmed reader now. Reload this page to follow it."}
      </p>
    );
  }
  const who =
    today.state === "not-made"
      ? readers(today.readers)
      : `the ${readers(today.readers)} who ${today.readers === 1 ? "has" : "have"} not had it yet (confirmed since it went out)`;
  if (confirming) {
    return (
      <div className="mt-3 rounded bg-amber-50 p-3 ring-1 ring-amber-300">
        <p className="font-semibold">{`Send today's digest to ${who} now?`}</p>
        <p className="mt-1 text-sm">Mail cannot be called back once it is sent.</p>
        <NewsroomForm intent="send" className="mt-3 flex flex-wrap gap-3">
          <button type="submit" className={PRIMARY_BUTTON}>
            Send it now
          </button>
          <Link to="/newsroom/newsletter" className={BUTTON}>
            Not now
          </Link>
        </NewsroomForm>
      </div>
    );
  }
  return (
    <>
      <p className="mt-2">{`It goes to ${who}.`}</p>
      <Form method="get" className="mt-3">
        <input type="hidden" name="confirm" value="send" />
        <button type="submit" className={PRIMARY_BUTTON}>
          Send today&apos;s digest now
        </button>
      </Form>
    </>
  );
}
