import { data, Link, redirect, useLocation } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { readAction, typedText } from "../../../server/newsroom/form-input";
import { staffAction, UNKNOWN_ROLE } from "../../../server/newsroom/forms";
import {
  addAccount,
  changeAccountRole,
  resetAccountPassword,
} from "../../../server/newsroom/staff-accounts";
import {
  findStaff,
  isStaffRole,
  listStaff,
  STAFF_ROLES,
  type StaffRole,
} from "../../../server/staff/accounts";
import { requireAdmin } from "../../../server/staff/guard";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../server/staff/passwords";
import {
  BUTTON,
  FIELD,
  Field,
  formatStaffTime,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "../../components/NewsroomNotice";
import { newsroomHeaders } from "../../lib/headers";
import { newsroomMeta } from "../../lib/newsroom-meta";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/staff";

/**
 * Admins manage the staff's accounts: add one, change a role, reset a password; removing one asks
 * first, on a page of its own (staff-remove.tsx). Every form is a plain post answered with a
 * redirect, so the page works the same without JavaScript.
 */

export const meta: Route.MetaFunction = newsroomMeta("Staff accounts");
export const headers = newsroomHeaders;

const ROLE_NAMES: Record<StaffRole, string> = { editor: "Editor", admin: "Admin" };

/** What the page says after a change, about the member it was made to when there still is one. */
function doneMessage(done: string | null, email: string | null, role: StaffRole | null) {
  switch (done) {
    case "add":
      return email
        ? `${email} is added as an ${role}: they sign in at /newsroom/sign-in with the password you chose. Give it to them in person, not by e-mail.`
        : "The account is added.";
    case "role":
      return email ? `${email} is now an ${role}, from their next page.` : "The role is changed.";
    case "reset":
      return email
        ? `${email} has a new password, and every session of theirs has ended.`
        : "The password is reset.";
    case "remove":
      return "The account is removed, and every session of it has ended.";
    default:
      return null;
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireAdmin(request, context);
  const members = await listStaff(context.db);
  const url = new URL(request.url);
  const subject = members.find((m) => m.id === Number(url.searchParams.get("member")));
  return {
    me: session.member.id,
    members: members.map((m) => ({
      id: m.id,
      email: m.email,
      role: m.role,
      since: m.createdAt.toISOString(),
    })),
    done: doneMessage(url.searchParams.get("done"), subject?.email ?? null, subject?.role ?? null),
    // Given to the page, so that no server module reaches the browser's bundle.
    roles: STAFF_ROLES,
    passwordRule: { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireAdmin(request, context, form);
  const read = readAction(staffAction, form);
  if (!read.ok && read.error === UNKNOWN_ROLE) throw data(UNKNOWN_ROLE, { status: 400 });
  const account = read.ok ? read.data : null;
  let member = account && account.intent !== "add" ? account.member : 0;
  let result;
  if (!account) {
    result = read;
  } else if (account.intent === "add") {
    const { email, role, password } = account;
    result = await addAccount(context.db, session.member, { email, role, password });
    if (result.ok) member = (await findStaff(context.db, email))?.id ?? 0;
  } else if (account.intent === "role") {
    result = await changeAccountRole(context.db, session.member, member, account.role);
  } else {
    result = await resetAccountPassword(context.db, session.member, member, account.password);
  }
  const intent = typedText(form, "intent");
  if (!result.ok) {
    // The password typed is never sent back to the page.
    const role = typedText(form, "role");
    return data(
      {
        error: result.error,
        intent,
        member,
        email: typedText(form, "email"),
        role: isStaffRole(role) ? role : null,
      },
      { status: 400 },
    );
  }
  throw redirect(`/newsroom/staff?done=${intent}${member > 0 ? `&member=${member}` : ""}`, 303);
}

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const { me, members, done, roles, passwordRule } = loaderData;
  const adding = actionData?.intent === "add";
  // A new key after each change: the forms start empty again (and closed) with JavaScript too,
  // as after a full page load, instead of keeping a password typed in.
  const { key } = useLocation();
  const passwordField = {
    type: "password",
    name: "password",
    required: true,
    minLength: passwordRule.min,
    maxLength: passwordRule.max,
    autoComplete: "new-password",
    className: `${FIELD} min-w-0`,
  } as const;
  const rule = `${passwordRule.min} to ${passwordRule.max} characters.`;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Staff accounts</h1>
      <p className="text-slate-700">
        Editors act on the site&apos;s content; admins also manage feeds, the newsletter, the audit
        log and these accounts. Every change here is written to the audit log, never a password.
      </p>
      <NewsroomNotice done={done} error={actionData?.error} />

      <Panel
        id="members-heading"
        title={`${members.length} ${members.length === 1 ? "account" : "accounts"}`}
      >
        <ul key={key} className="mt-3 divide-y divide-slate-200 rounded ring-1 ring-slate-200">
          {members.map((m) => {
            const self = m.id === me;
            const other: StaffRole = m.role === "admin" ? "editor" : "admin";
            const resetOpen = actionData?.intent === "reset" && actionData.member === m.id;
            return (
              <li key={m.id} className="flex flex-col gap-2 p-3">
                <p>
                  <span className="font-semibold break-all">{m.email}</span>
                  {self ? <span className="text-slate-700"> (you)</span> : null}
                  <span className="block text-sm text-slate-700">
                    {ROLE_NAMES[m.role]} · since{" "}
                    <time dateTime={m.since}>{formatStaffTime(m.since)}</time>
                  </span>
                </p>
                {self ? (
                  <p className="text-sm text-slate-700">
                    Another admin can change your role or remove your account.
                  </p>
                ) : (
                  <div className="flex flex-wrap gap-2">
                    <NewsroomForm intent="role">
                      <input type="hidden" name="member" value={m.id} />
                      <input type="hidden" name="role" value={other} />
                      <button
                        type="submit"
                        className={BUTTON}
                        aria-label={`Make an ${other}: ${m.email}`}
                      >
                        Make an {other}
                      </button>
                    </NewsroomForm>
                    <Link
                      to={`/newsroom/staff/${m.id}/remove`}
                      className={BUTTON}
                      aria-label={`Remove…: ${m.email}`}
                    >
                      Remove…
                    </Link>
                  </div>
                )}
                <details open={resetOpen} className="rounded bg-slate-50 p-3 ring-1 ring-slate-200">
                  <summary className="cursor-pointer font-semibold">
                    Reset the password<span className="sr-only"> of {m.email}</span>
                  </summary>
                  <NewsroomForm className="mt-3 flex max-w-xl flex-col items-start gap-3">
                    <input type="hidden" name="intent" value="reset" />
                    <input type="hidden" name="member" value={m.id} />
                    <div className="flex w-full min-w-0 flex-col gap-1">
                      <label className="flex flex-col gap-1 font-semibold">
                        <span>
                          New password<span className="sr-only"> for {m.email}</span>
                        </span>
                        <input {...passwordField} aria-describedby={`reset-help-${m.id}`} />
                      </label>
                      <p id={`reset-help-${m.id}`} className="text-sm text-slate-700">
                        {rule}{" "}
                        {self
                          ? "This signs you out everywhere, here too."
                          : "This signs them out everywhere."}
                      </p>
                    </div>
                    <button
                      type="submit"
                      className={PRIMARY_BUTTON}
                      aria-label={`Set the new password: ${m.email}`}
                    >
                      Set the new password
                    </button>
                  </NewsroomForm>
                </details>
              </li>
            );
          })}
        </ul>
      </Panel>

      <Panel id="add-heading" title="Add an account" boxed>
        <NewsroomForm intent="add" key={key} className="mt-3 flex max-w-xl flex-col gap-4">
          <Field
            label="E-mail"
            type="email"
            name="email"
            required
            autoComplete="off"
            defaultValue={adding ? actionData.email : ""}
            className={`${FIELD} min-w-0`}
          />
          <Field
            label="Role"
            name="role"
            defaultValue={(adding ? actionData.role : null) ?? "editor"}
            className={`${FIELD} min-w-0`}
            options={roles.map((r) => [r, ROLE_NAMES[r]])}
          />
          <div className="flex flex-col gap-1">
            <Field label="Password" {...passwordField} aria-describedby="password-help" />
            <p id="password-help" className="text-sm text-slate-700">
              {rule} Give it to them in person or through a password manager, never by e-mail.
            </p>
          </div>
          <p>
            <button type="submit" className={PRIMARY_BUTTON}>
              Add the account
            </button>
          </p>
        </NewsroomForm>
      </Panel>
    </div>
  );
}
