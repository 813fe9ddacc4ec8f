import { redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { recordAudit } from "../../../server/staff/audit";
import { requireStaffAction } from "../../../server/staff/guard";
import { clearedSessionCookie, endSession } from "../../../server/staff/sessions";
import { newsroomHeaders } from "../../lib/headers";
import type { Route } from "./+types/sign-out";

export const headers = newsroomHeaders;

/** Signing out is a POST from the newsroom's header (a link could be followed by anything). */
export async function loader({ request, context }: Route.LoaderArgs) {
  // GET is not a way to sign out: back to the newsroom (or its sign-in page).
  void context;
  throw redirect(new URL("/newsroom", request.url).pathname, 303);
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  await recordAudit(context.db, session.member, { action: "sign-out" });
  await endSession(context.db, session.token);
  throw redirect("/newsroom/sign-in?signed-out", {
    status: 303,
    headers: { "Set-Cookie": clearedSessionCookie(context.config.siteUrl) },
  });
}
