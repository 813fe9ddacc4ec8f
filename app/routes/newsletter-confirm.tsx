import { data, Form, Link, redirect } from "react-router";
import { readForm } from "../../server/forms/submission";
import { confirmationTokenValid, confirmSubscription } from "../../server/newsletter/subscriptions";
import { NewsletterBox } from "../components/NewsletterBox";
import { PageHeading } from "../components/PageHeading";
import { linkToken, mailLinkHeaders } from "../lib/mail-link";
import { CONFIRM_TOKEN_HOURS } from "../../shared/newsletter";
import type { Route } from "./+types/newsletter-confirm";

export const headers = mailLinkHeaders;

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your subscription | Newsletter" },
  { name: "robots", content: "noindex, nofollow" },
];

type State = "ask" | "confirmed" | "invalid";

/** The link in the confirmation mail opens this page; only its button (a POST) confirms. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("confirmed") === "1") return { state: "confirmed" as State, token: "" };
  const token = linkToken(request);
  const valid = await confirmationTokenValid(context.db, token, new Date());
  return { state: (valid ? "ask" : "invalid") as State, token };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { confirmed } = await confirmSubscription(context.db, linkToken(request, form), new Date());
  if (!confirmed) return data({ state: "invalid" as State }, { status: 400 });
  return redirect("/newsletter/confirm?confirmed=1", 303);
}

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  if (state === "confirmed") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading lead="Thanks for confirming. The day's San Diego stories will be in your inbox every morning.">
          You&apos;re subscribed
        </PageHeading>
        <p role="status" className="rounded bg-green-50 p-3 text-green-900 ring-1 ring-green-200">
          Your subscription is confirmed.
        </p>
        <p className="mt-6">
          <Link to="/" className="font-semibold text-brand underline">
            Read today&apos;s stories
          </Link>
        </p>
      </div>
    );
  }
  if (state === "invalid") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading
          lead={`Confirmation links work once, for ${CONFIRM_TOKEN_HOURS} hours. Sign up again and we will send you a new one.`}
        >
          This link no longer works
        </PageHeading>
        <NewsletterBox />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md">
      <PageHeading lead="One more step: confirm that you want the day's San Diego stories by e-mail every morning.">
        Confirm your subscription
      </PageHeading>
      <Form method="post" action="/newsletter/confirm">
        <input type="hidden" name="token" value={loaderData.token} />
        <button
          type="submit"
          className="w-full rounded bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark"
        >
          Confirm my subscription
        </button>
      </Form>
      <p className="mt-4 text-sm text-slate-700">
        Did not sign up? Leave this page: without the button, nothing happens.
      </p>
    </div>
  );
}
