import { data, Form, redirectDocument } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf } from "../../../server/newsroom/form-input";
import { signInForm } from "../../../server/newsroom/forms";
import { afterSignIn, signIn } from "../../../server/staff/sign-in";
import { sessionCookie, sessionFor, sessionToken } from "../../../server/staff/sessions";
import { newsroomHeaders } from "../../lib/headers";
import { NewsroomHeader } from "../../components/NewsroomHeader";
import type { Route } from "./+types/sign-in";
import { newsroomMeta } from "../../lib/newsroom-meta";

export const handle = { newsroom: true };
export const headers = newsroomHeaders;

export const meta: Route.MetaFunction = newsroomMeta("Sign in");

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const next = afterSignIn(url.searchParams.get("next"));
  // Already signed in: straight on (as a page load: see the action).
  if (await sessionFor(context.db, sessionToken(request), new Date())) {
    throw redirectDocument(next, 303);
  }
  return { next, signedOut: url.searchParams.has("signed-out") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== new URL(context.config.siteUrl).origin) {
    throw data("Sign in from the newsroom's own page.", { status: 403 });
  }
  const { email, password, next } = actionOf(signInForm, form);
  const outcome = await signIn(context.db, {
    email,
    password,
    address: context.clientAddress,
    previousToken: sessionToken(request),
  });
  if (outcome.kind === "refused") {
    return data({ error: outcome.error, email }, { status: outcome.status });
  }
  context.logger.info({ staff: outcome.member.id }, "staff signed in");
  // A page load, not a client-side navigation: the cookie's path is /newsroom, which a browser
  // does not send with the overview's data request (/newsroom.data), only with the page itself.
  throw redirectDocument(afterSignIn(next), {
    status: 303,
    headers: { "Set-Cookie": sessionCookie(outcome.token, context.config.siteUrl) },
  });
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <NewsroomHeader />
      <div className="mx-auto max-w-sm py-8">
        <h1 className="text-2xl font-bold">Sign in to the newsroom</h1>
        <p className="mt-2 text-sm text-slate-700">
          For the publication's staff. Readers need no account.
        </p>
        {loaderData.signedOut ? (
          <p
            role="status"
            className="mt-4 rounded bg-green-50 p-3 text-sm text-green-900 ring-1 ring-green-200"
          >
            You are signed out.
          </p>
        ) : null}
        {actionData?.error ? (
          <p
            role="alert"
            className="mt-4 rounded bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200"
          >
            {actionData.error}
          </p>
        ) : null}
        <Form method="post" className="mt-6 flex flex-col gap-4">
          <input type="hidden" name="next" value={loaderData.next} />
          <label className="flex flex-col gap-1 font-semibold">
            E-mail
            <input
              type="email"
              name="email"
              required
              autoComplete="username"
              defaultValue={actionData?.email ?? ""}
              className="rounded border border-slate-400 px-3 py-2 font-normal"
            />
          </label>
          <label className="flex flex-col gap-1 font-semibold">
            Password
            <input
              type="password"
              name="password"
              required
              autoComplete="current-password"
              className="rounded border border-slate-400 px-3 py-2 font-normal"
            />
          </label>
          <button
            type="submit"
            className="rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
          >
            Sign in
          </button>
        </Form>
      </div>
    </>
  );
}
