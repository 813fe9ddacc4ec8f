import { data } from "react-router";
import { guardForm, RATE_LIMITED_MESSAGE } from "../../server/forms/guard";
import {
  NEWSLETTER_UNAVAILABLE,
  subscribe,
  type NewsletterAnswer,
} from "../../server/newsletter/signup-form";
import {
  readForm,
  redirectWithMessage,
  safeReturnPath,
  textFields,
  wantsInlineAnswer,
} from "../../server/forms/submission";
import { NewsletterBox } from "../components/NewsletterBox";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { formHeaders } from "../lib/headers";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/newsletter";

export const headers = formHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Newsletter",
    description: "Get the day's San Diego stories in your inbox every morning.",
  });

/**
 * Every newsletter box posts here. With JavaScript the answer is data and the reader's page stays;
 * without it a signup goes back to the page it came from with the confirmation, and a refused one
 * is shown on this page with the reason.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const inline = wantsInlineAnswer(form);
  const refuse = (answer: NewsletterAnswer, status: number, headers?: HeadersInit) =>
    data(answer, { status, headers });

  const verdict = await guardForm(form, context.formLimiter, "newsletter", context.clientAddress);
  if (verdict.kind === "rate-limited") {
    return refuse({ status: "error", error: RATE_LIMITED_MESSAGE }, 429, {
      "Retry-After": String(verdict.retryAfterSeconds),
    });
  }
  const fields = textFields(form, ["email"]);
  if (verdict.kind === "ok") {
    try {
      const outcome = await subscribe(context, fields);
      if (!outcome.ok) return refuse({ status: "error", error: outcome.error, ...fields }, 400);
    } catch (error) {
      context.logger.error({ err: error }, "A newsletter signup could not be stored");
      return refuse({ status: "error", error: NEWSLETTER_UNAVAILABLE, ...fields }, 503);
    }
  }
  if (inline) return { status: "subscribed" } satisfies NewsletterAnswer;
  return redirectWithMessage(safeReturnPath(form.get("returnTo")), "subscribed", "1", "newsletter");
}

export default function Newsletter({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-md">
      <PageHeading lead="The day's San Diego stories, every morning. Free, and one click to leave.">
        Newsletter
      </PageHeading>
      <NewsletterBox posted={actionData} />
      <PageAds kind="page" at="end" className="mt-10" />
    </div>
  );
}
