import { data, redirect } from "react-router";
import type { LoadContext } from "../http/load-context";
import type { StaffRole } from "./accounts";
import {
  csrfToken,
  csrfTokenMatches,
  sessionFor,
  sessionToken,
  type StaffSession,
} from "./sessions";

/**
 * Every newsroom loader and action starts with one of these (the route table test in
 * server/staff/routes.test.ts checks that none answers without a session). React Router runs a
 * page's loaders side by side, so a parent's check does not protect a child's data: each checks.
 */

/** Where a member who is not signed in is sent, with the page to come back to. */
function signInRedirect(request: Request): never {
  const url = new URL(request.url);
  const next = url.pathname.replace(/\.data$/, "") + url.search;
  throw redirect(`/newsroom/sign-in?next=${encodeURIComponent(next)}`, 303);
}

function requireRole(session: StaffSession, role: StaffRole): StaffSession {
  if (role === "admin" && session.member.role !== "admin") {
    throw data("Only an admin can see or do this.", { status: 403 });
  }
  return session;
}

/** For a loader: the signed-in member (with the form token pages put in their forms). */
export async function requireStaff(
  request: Request,
  context: LoadContext,
  role: StaffRole = "editor",
): Promise<StaffSession & { csrf: string }> {
  const session = await sessionFor(context.db, sessionToken(request), new Date());
  if (!session) signInRedirect(request);
  requireRole(session, role);
  return { ...session, csrf: await csrfToken(context.db, session) };
}

/**
 * For an action: the signed-in member, after checking the post came from one of our own pages
 * (its Origin, when the browser sends one, is ours; its form carries the session's token).
 */
export async function requireStaffAction(
  request: Request,
  context: LoadContext,
  form: FormData,
  role: StaffRole = "editor",
): Promise<StaffSession> {
  const session = await sessionFor(context.db, sessionToken(request), new Date());
  if (!session) signInRedirect(request);
  const origin = request.headers.get("Origin");
  const ours = new URL(context.config.siteUrl).origin;
  if (
    (origin !== null && origin !== ours) ||
    !(await csrfTokenMatches(context.db, session, form.get("_csrf")))
  ) {
    throw data("This form has expired or did not come from the newsroom: open the page again.", {
      status: 403,
    });
  }
  return requireRole(session, role);
}

/**
 * The one check for an admin's page or action (feeds, subscribers, the audit log): like
 * `requireStaff` for a loader, or `requireStaffAction` for an action when given the posted form,
 * and answers 403 to an editor.
 */
export function requireAdmin(
  request: Request,
  context: LoadContext,
): Promise<StaffSession & { csrf: string }>;
export function requireAdmin(
  request: Request,
  context: LoadContext,
  form: FormData,
): Promise<StaffSession>;
export function requireAdmin(
  request: Request,
  context: LoadContext,
  form?: FormData,
): Promise<StaffSession> {
  return form === undefined
    ? requireStaff(request, context, "admin")
    : requireStaffAction(request, context, form, "admin");
}
