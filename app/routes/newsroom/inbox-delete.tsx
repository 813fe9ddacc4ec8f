import { data, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { deleteMessage, inboxMessage } from "../../../server/newsroom/inbox";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { inboxAddress, inboxPageNumber } from "../../../shared/newsroom";
import {
  BUTTON,
  DANGER_BUTTON,
  formatStaffTime,
  NewsroomNotice,
} from "../../components/NewsroomNotice";
import { NewsroomForm } from "./layout";
import type { Route } from "./+types/inbox-delete";
import { newsroomMeta } from "../../lib/newsroom-meta";

/**
 * Deleting a contact message asks first, on a page of its own: the inbox's "Delete…" link opens
 * it, and only its button (a post) deletes, so it works the same without JavaScript.
 */

export const meta: Route.MetaFunction = newsroomMeta("Delete a message");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const message = await inboxMessage(context.db, Number(params.id));
  if (!message) {
    throw data("There is no message with that number: it may have been deleted.", {
      status: 404,
    });
  }
  return {
    message: { ...message, createdAt: message.createdAt.toISOString() },
    page: inboxPageNumber(new URL(request.url).searchParams.get("page")),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const result = await deleteMessage(context.db, session.member, Number(params.id));
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect(inboxAddress(inboxPageNumber(form.get("page")), "delete"), 303);
}

export default function DeleteMessage({ loaderData, actionData }: Route.ComponentProps) {
  const { message, page } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Delete this message?</h1>
      <NewsroomNotice error={actionData?.error} />
      <article aria-labelledby="message-heading" className="rounded p-4 ring-1 ring-slate-400">
        <h2 id="message-heading" className="font-bold break-words">
          {message.name} <span className="font-normal break-all">&lt;{message.email}&gt;</span>
        </h2>
        <p className="text-sm text-slate-700">
          {formatStaffTime(message.createdAt)}
          {message.category ? ` · ${message.category}` : ""}
        </p>
        <p className="mt-2 whitespace-pre-line break-words">{message.message}</p>
      </article>
      <p>
        It is gone for good. The audit log keeps that you deleted it and when, not what it said.
      </p>
      <NewsroomForm className="flex flex-wrap gap-3">
        <input type="hidden" name="page" value={page} />
        <button type="submit" className={DANGER_BUTTON}>
          Delete the message
        </button>
        <Link to={inboxAddress(page)} className={BUTTON}>
          Keep it
        </Link>
      </NewsroomForm>
    </div>
  );
}
