import { data, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf } from "../../../server/newsroom/form-input";
import { inboxAction } from "../../../server/newsroom/forms";
import { inboxPage, markHandled } from "../../../server/newsroom/inbox";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { INBOX_DONE, inboxAddress, inboxPageNumber, isInboxDone } from "../../../shared/newsroom";
import { BUTTON, formatStaffTime, NewsroomNotice } from "../../components/NewsroomNotice";
import { PageLinks } from "../../components/PageLinks";
import { NewsroomForm } from "./layout";
import type { Route } from "./+types/inbox";
import { newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Inbox");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const url = new URL(request.url);
  const { messages, page, pages, total } = await inboxPage(
    context.db,
    inboxPageNumber(url.searchParams.get("page")),
  );
  const done = url.searchParams.get("done");
  return {
    messages: messages.map((m) => ({
      ...m,
      createdAt: m.createdAt.toISOString(),
      handledAt: m.handledAt?.toISOString() ?? null,
    })),
    page,
    pages,
    total,
    done: isInboxDone(done) ? INBOX_DONE[done] : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const { intent, message } = actionOf(inboxAction, form);
  const result = await markHandled(context.db, session.member, message, intent === "handled");
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect(inboxAddress(inboxPageNumber(form.get("page")), intent), 303);
}

export default function Inbox({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, page, pages, total, done } = loaderData;
  const open = messages.filter((m) => m.handledAt === null).length;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold">Inbox</h1>
        <p className="mt-2 text-slate-700">
          Messages readers sent with the contact form, newest first.{" "}
          {total === 0
            ? ""
            : `${total} ${total === 1 ? "message" : "messages"}; on this page, ${open} open.`}
        </p>
      </div>
      <NewsroomNotice done={done} error={actionData?.error} />
      {messages.length === 0 ? (
        <p>No message yet.</p>
      ) : (
        <ol className="flex flex-col gap-4" aria-label={`Messages, page ${page} of ${pages}`}>
          {messages.map((m) => (
            <li key={m.id}>
              <article
                aria-labelledby={`message-${m.id}`}
                className={`flex flex-col gap-2 rounded p-4 ring-1 ${m.handledAt ? "bg-slate-50 ring-slate-200" : "ring-slate-400"}`}
              >
                <h2 id={`message-${m.id}`} className="font-bold break-words">
                  {m.name} <span className="font-normal break-all">&lt;{m.email}&gt;</span>
                </h2>
                <p className="flex flex-wrap gap-x-3 text-sm text-slate-700">
                  <span>{formatStaffTime(m.createdAt)}</span>
                  {m.category ? <span>{m.category}</span> : null}
                  <span className="font-semibold">
                    {m.handledAt
                      ? `Handled by ${m.handledBy ?? "staff"}, ${formatStaffTime(m.handledAt)}`
                      : "Open"}
                  </span>
                  {m.spamReason ? (
                    <span className="font-semibold text-red-800">
                      Looks automated: {m.spamReason}
                    </span>
                  ) : null}
                </p>
                <p className="whitespace-pre-line break-words">{m.message}</p>
                <div className="flex flex-wrap gap-2">
                  <NewsroomForm>
                    <input type="hidden" name="message" value={m.id} />
                    <input type="hidden" name="page" value={page} />
                    <button
                      type="submit"
                      name="intent"
                      value={m.handledAt ? "unhandled" : "handled"}
                      className={BUTTON}
                      aria-label={`${m.handledAt ? "Mark open again" : "Mark handled"}: message from ${m.name}`}
                    >
                      {m.handledAt ? "Mark open again" : "Mark handled"}
                    </button>
                  </NewsroomForm>
                  <Link
                    to={`/newsroom/inbox/${m.id}/delete?page=${page}`}
                    className={BUTTON}
                    aria-label={`Delete…: message from ${m.name}`}
                  >
                    Delete…
                  </Link>
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}
      <PageLinks
        label="Inbox pages"
        page={page}
        pages={pages}
        href={inboxAddress}
        previous="← Newer"
        next="Older →"
        className="flex flex-wrap items-center gap-3"
        linkClassName={BUTTON}
      />
    </div>
  );
}
