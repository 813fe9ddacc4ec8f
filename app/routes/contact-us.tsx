import { useId } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import {
  CONTACT_FIELDS,
  CONTACT_UNAVAILABLE,
  contactCategory,
  contactSpamReason,
  sendContactMessage,
  type ContactErrors,
} from "../../server/forms/contact";
import { issueFormToken } from "../../server/forms/form-token";
import { guardForm, RATE_LIMITED_MESSAGE } from "../../server/forms/guard";
import { siteSecret } from "../../server/db/secrets";
import { FORM_TOKEN_FIELD } from "../../shared/form-fields";
import { readForm, textFields } from "../../server/forms/submission";
import { ContactDetails } from "../components/ContactDetails";
import { FrameEmbed } from "../components/Embed";
import { Honeypot } from "../components/FormExtras";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { useEmbeds } from "../lib/embeds";
import { formHeaders } from "../lib/headers";
import { pageHead, pageUrl } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { contactPage } from "../../shared/structured-data";
import type { ContactCategory } from "../../server/content/load";
import type { Route } from "./+types/contact-us";

/** The spec's height of the outside contact form's frame. */
const CONTACT_FRAME_HEIGHT = 789;

export const meta = headMeta;

export const headers = formHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const { siteUrl } = context.config;
  const { contact, site } = context.content;
  const categories = contact.categories.map((c) => c.value);
  return {
    head: pageHead(
      request,
      context,
      {
        title: "Contact Us",
        description:
          "Send a news tip, a correction, an event or an advertising question to our newsroom.",
      },
      [contactPage(siteUrl, pageUrl(request, siteUrl), site.name)],
    ),
    category: contactCategory(categories, params.get("category")),
    rawCategory: params.get("category")?.slice(0, 100) ?? null,
    sent: params.get("sent") === "1",
    contact,
    formToken: await formToken(context),
  };
}

/**
 * The form's signed time. Without the database the page still shows the form and the newsroom's
 * details; a message sent from it is then kept as suspected spam rather than lost.
 */
async function formToken(context: Route.LoaderArgs["context"]): Promise<string> {
  try {
    return issueFormToken(await siteSecret(context.db, "forms"));
  } catch (error) {
    context.logger.warn({ err: error }, "The contact form's token could not be signed");
    return "";
  }
}

interface ContactAnswer {
  /** A message for the whole form (rate limit, outage). */
  error?: string;
  errors?: ContactErrors;
  values?: Record<string, string>;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const verdict = await guardForm(form, context.formLimiter, "contact", context.clientAddress);
  if (verdict.kind === "rate-limited") {
    return data<ContactAnswer>(
      { error: RATE_LIMITED_MESSAGE },
      { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
    );
  }
  const values = textFields(form, CONTACT_FIELDS);
  // A filled honeypot gets the same thanks, and nothing is stored.
  if (verdict.kind === "bot") return redirect("/contact-us?sent=1", 303);
  try {
    const categories = context.content.contact.categories.map((c) => c.value);
    const token = form.get(FORM_TOKEN_FIELD);
    const spamReason = contactSpamReason(
      await siteSecret(context.db, "forms"),
      typeof token === "string" ? token : undefined,
      values.message ?? "",
    );
    if (spamReason) context.logger.info({ spamReason }, "A contact message looks automated");
    const outcome = await sendContactMessage(context.db, categories, values, spamReason);
    if (!outcome.ok)
      return data<ContactAnswer>({ errors: outcome.errors, values }, { status: 400 });
  } catch (error) {
    context.logger.error({ err: error }, "A contact message could not be stored");
    return data<ContactAnswer>({ error: CONTACT_UNAVAILABLE, values }, { status: 503 });
  }
  return redirect("/contact-us?sent=1", 303);
}

/** The outside form's address with the reader's `?category=` passed on. */
function frameUrl(base: string, category: string | null): string {
  const url = new URL(base);
  if (category) url.searchParams.set("category", category);
  return url.toString();
}

export const handle = headHandle;

export default function ContactUs({ loaderData, actionData }: Route.ComponentProps) {
  const { contactFormUrl } = useEmbeds();
  return (
    <>
      <PageHeading lead="News tips, corrections, events and advertising.">Contact Us</PageHeading>
      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <Section title="Send us a message">
          {contactFormUrl ? (
            <FrameEmbed
              src={frameUrl(contactFormUrl, loaderData.rawCategory)}
              title="Contact form"
              height={CONTACT_FRAME_HEIGHT}
              sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
            />
          ) : loaderData.sent ? (
            <div role="status" className="rounded-lg bg-emerald-50 p-6 ring-1 ring-emerald-200">
              <p className="font-bold text-emerald-950">{loaderData.contact.thanks.title}</p>
              <p className="mt-1 text-emerald-950">{loaderData.contact.thanks.text}</p>
            </div>
          ) : (
            <ContactForm
              categories={loaderData.contact.categories}
              category={loaderData.category}
              formToken={loaderData.formToken}
              answer={actionData}
            />
          )}
        </Section>
        <aside aria-label="Contact details">
          <Section title="Support">
            <ContactDetails />
          </Section>
        </aside>
      </div>
      <PageAds kind="page" at="end" className="mt-10" />
    </>
  );
}

interface FormProps {
  categories: readonly ContactCategory[];
  category: string | null;
  formToken: string;
  answer: ContactAnswer | undefined;
}

/** Our own contact form: a plain POST form that React Router sends without a reload when it can. */
function ContactForm({ categories, category, formToken, answer }: FormProps) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const id = useId();
  const errors = answer?.errors ?? {};
  const values = answer?.values ?? {};
  const described = (field: keyof ContactErrors) =>
    errors[field] ? { "aria-invalid": true, "aria-describedby": `${id}-${field}-error` } : {};
  const fieldError = (field: keyof ContactErrors) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="mt-1 text-sm text-red-800">
        {errors[field]}
      </p>
    ) : null;
  const input =
    "mt-1 w-full rounded border border-slate-400 bg-white px-3 py-2 aria-[invalid=true]:border-red-700";
  const errorCount = Object.keys(errors).length;

  return (
    <Form method="post" className="relative space-y-5">
      {answer?.error || errorCount > 0 ? (
        <p role="alert" className="rounded bg-red-50 p-3 text-red-900 ring-1 ring-red-200">
          {answer?.error ||
            `Please correct ${errorCount === 1 ? "the field" : `the ${errorCount} fields`} marked below.`}
        </p>
      ) : null}
      <Honeypot />
      <input type="hidden" name={FORM_TOKEN_FIELD} value={formToken} />
      <div>
        <label htmlFor={`${id}-name`} className="font-semibold">
          Name
        </label>
        <input
          id={`${id}-name`}
          name="name"
          required
          maxLength={100}
          autoComplete="name"
          defaultValue={values.name}
          className={input}
          {...described("name")}
        />
        {fieldError("name")}
      </div>
      <div>
        <label htmlFor={`${id}-email`} className="font-semibold">
          E-mail
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          defaultValue={values.email}
          className={input}
          {...described("email")}
        />
        {fieldError("email")}
      </div>
      <div>
        <label htmlFor={`${id}-category`} className="font-semibold">
          What is it about?
        </label>
        <select
          id={`${id}-category`}
          name="category"
          defaultValue={values.category ?? category ?? "general"}
          className={input}
          {...described("category")}
        >
          {categories.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        {fieldError("category")}
      </div>
      <div>
        <label htmlFor={`${id}-message`} className="font-semibold">
          Message
        </label>
        <textarea
          id={`${id}-message`}
          name="message"
          required
          minLength={10}
          maxLength={5000}
          rows={7}
          defaultValue={values.message}
          className={input}
          {...described("message")}
        />
        {fieldError("message")}
      </div>
      <button
        type="submit"
        disabled={sending}
        className="rounded bg-brand px-5 py-2 font-semibold text-white hover:bg-brand-dark disabled:opacity-60"
      >
        {sending ? "Sending…" : "Send message"}
      </button>
    </Form>
  );
}
