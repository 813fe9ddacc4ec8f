import { data, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { removeAccount } from "../../../server/newsroom/staff-accounts";
import { findStaff } from "../../../server/staff/accounts";
import { requireAdmin } from "../../../server/staff/guard";
import {
  BUTTON,
  DANGER_BUTTON,
  formatStaffTime,
  NewsroomNotice,
} from "../../components/NewsroomNotice";
import { newsroomHeaders } from "../../lib/headers";
import { newsroomMeta } from "../../lib/newsroom-meta";
import { NewsroomForm } from "./layout";
import type { Route } from "./+types/staff-remove";

/**
 * Removing a staff account asks first, on a page of its own: the staff page's "Remove…" link opens
 * it, and only its button (a post) removes, so it works the same without JavaScript.
 */

export const meta: Route.MetaFunction = newsroomMeta("Remove an account");
export const headers = newsroomHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const session = await requireAdmin(request, context);
  const member = await findStaff(context.db, Number(params.id));
  if (!member) {
    throw data("There is no such account: it may have been removed already.", { status: 404 });
  }
  return {
    member: {
      email: member.email,
      role: member.role,
      since: member.createdAt.toISOString(),
    },
    self: member.id === session.member.id,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireAdmin(request, context, form);
  const result = await removeAccount(context.db, session.member, Number(params.id));
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect("/newsroom/staff?done=remove", 303);
}

export default function RemoveAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { member, self } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Remove this account?</h1>
      <NewsroomNotice
        error={
          actionData?.error ??
          (self ? "You cannot remove your own account: another admin can do it." : null)
        }
      />
      <p className="rounded p-4 ring-1 ring-slate-400">
        <span className="font-semibold break-all">{member.email}</span>
        <span className="block text-sm text-slate-700">
          {member.role === "admin" ? "Admin" : "Editor"} · since{" "}
          <time dateTime={member.since}>{formatStaffTime(member.since)}</time>
        </span>
      </p>
      <p>
        They are signed out at once and can no longer sign in. The audit log keeps what they did,
        under their e-mail address. To let them back in, add the account again.
      </p>
      {self ? (
        <p>
          <Link to="/newsroom/staff" className={BUTTON}>
            Back to the staff accounts
          </Link>
        </p>
      ) : (
        <NewsroomForm className="flex flex-wrap gap-3">
          <button type="submit" className={DANGER_BUTTON}>
            Remove the account
          </button>
          <Link to="/newsroom/staff" className={BUTTON}>
            Keep it
          </Link>
        </NewsroomForm>
      )}
    </div>
  );
}
