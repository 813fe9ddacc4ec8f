import { data, Link, type ShouldRevalidateFunctionArgs } from "react-router";
import {
  castVote,
  outcomeForAddress,
  outcomeInAddress,
  voterAddressKey,
  postedVote,
  pollViewFor,
  readVoterId,
  voterCookie,
  type PollView,
} from "../../server/forms/poll";
import { formTokenDoubt, issueFormToken } from "../../server/forms/form-token";
import { FORM_TOKEN_FIELD } from "../../shared/form-fields";
import { siteSecret } from "../../server/db/secrets";
import { guardForm, RATE_LIMITED_MESSAGE } from "../../server/forms/guard";
import { readForm, redirectWithMessage, wantsInlineAnswer } from "../../server/forms/submission";
import { readOr503 } from "../../server/news/load";
import { latestArticles } from "../../server/news/repository";
import { ArticleImage } from "../components/ArticleImage";
import { ErrorState } from "../components/ErrorState";
import { OutsideLinks } from "../components/OutsideLinks";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { PICTURE_SLOTS } from "../components/picture-slots";
import { Poll } from "../components/Poll";
import { Section } from "../components/Section";
import { SidebarBox } from "../components/SidebarBox";
import { StoryList } from "../components/StoryList";
import type { Article } from "../../shared/article";
import { articleCategory, categoryByKey, categoryByPath, errorText } from "../../shared/categories";
import { formatLongDate } from "../lib/dates";
import { formHeaders } from "../lib/headers";
import { categoryHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import type { ListedEvent } from "../../server/content/load";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/community";

const COMMUNITY = categoryByKey("community");

/** The spec's limit: at most 15 articles per category page. */
const CATEGORY_LIMIT = 15;

export const headers = formHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const articles = await readOr503(context.logger, errorText(COMMUNITY.name), () =>
    latestArticles(context.db, { category: articleCategory(COMMUNITY), limit: CATEGORY_LIMIT }),
  );
  // The poll is secondary: if it cannot be read the reader still gets the stories and the form.
  let poll: PollView = { status: "open" };
  let pollToken = "";
  try {
    poll = await pollViewFor(
      context.db,
      context.content.community.poll,
      readVoterId(request.headers.get("Cookie")),
      outcomeInAddress(new URL(request.url).searchParams.get("poll")),
    );
    // The vote's proof that it came from this page (a kept page's token is as good for a day).
    pollToken = issueFormToken(await siteSecret(context.db, "forms"));
  } catch (error) {
    context.logger.error({ err: error }, "The community poll could not be read");
  }
  // The poll box shows a voter their results: the page differs by cookie.
  const community = categoryByPath("/community");
  const head = community ? categoryHead(request, context, community, articles) : undefined;
  return data(
    { articles, poll, pollToken, head, community: context.content.community },
    { headers: { Vary: "Cookie" } },
  );
}

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "community" satisfies RouteKeysName };

/**
 * A vote. With JavaScript the answer is the poll's new state, shown in place; without it the
 * reader is sent back to the poll (POST, then GET), which shows the results and the message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const verdict = await guardForm(form, context.formLimiter, "poll", context.clientAddress);
  if (verdict.kind === "rate-limited") {
    const view: PollView = { status: "open", error: RATE_LIMITED_MESSAGE };
    return data(view, {
      status: 429,
      headers: { "Retry-After": String(verdict.retryAfterSeconds) },
    });
  }
  const { poll } = context.content.community;
  const known = readVoterId(request.headers.get("Cookie"));
  const voterId = known ?? crypto.randomUUID();
  const secure = context.config.siteUrl.startsWith("https://");
  const headers = new Headers();
  if (!known) headers.set("Set-Cookie", voterCookie(voterId, { secure }));
  try {
    const secret = await siteSecret(context.db, "forms");
    const token = form.get(FORM_TOKEN_FIELD);
    // Any age under a day will do: a poll is answered with one click, sooner than a form is typed.
    const signed =
      formTokenDoubt(secret, typeof token === "string" ? token : undefined, Date.now(), 0) === null;
    // A filled honeypot is answered like a vote that was not counted, and nothing is stored.
    const outcome =
      verdict.kind === "bot"
        ? {
            ok: true as const,
            counted: false,
            outcome: "already" as const,
            view: await pollViewFor(context.db, poll, null, "already"),
          }
        : await castVote(
            context.db,
            poll,
            voterId,
            postedVote(form),
            context.clientAddress === "unknown"
              ? null
              : voterAddressKey(secret, poll.id, context.clientAddress),
            signed,
          );
    if (!outcome.ok) return data(outcome.view, { status: 400 });
    if (wantsInlineAnswer(form)) return data(outcome.view, { headers });
    const redirect = redirectWithMessage(
      "/community",
      "poll",
      outcomeForAddress(outcome.outcome),
      "poll",
    );
    headers.forEach((value, name) => redirect.headers.append(name, value));
    return redirect;
  } catch (error) {
    context.logger.error({ err: error }, "A poll vote could not be stored");
    const view: PollView = {
      status: "open",
      error: "Your vote could not be saved just now. Please try again.",
    };
    return data(view, { status: 503 });
  }
}

/** A vote changes only the poll box, which has its answer already; the stories stay as they are. */
export function shouldRevalidate({
  currentUrl,
  formMethod,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const vote =
    formMethod?.toUpperCase() === "POST" && formAction?.split(/[?#]/)[0] === currentUrl.pathname;
  return vote ? false : defaultShouldRevalidate;
}

function Hero({ article }: { article: Article }) {
  return (
    <article
      aria-labelledby="community-hero-title"
      className="relative mb-10 flex h-[400px] flex-col justify-end overflow-hidden rounded-lg bg-slate-800 text-white"
    >
      <ArticleImage
        picture={article.picture}
        alt=""
        slot={PICTURE_SLOTS.communityHero}
        load="priority"
        width={1200}
        height={400}
        className="absolute inset-0 h-full w-full object-cover"
      />
      <div className="relative bg-gradient-to-t from-black/90 via-black/70 to-transparent p-6 pt-20 md:p-8 md:pt-24">
        <p className="text-xs font-semibold tracking-wide text-sky-200 uppercase">Top story</p>
        <h2 id="community-hero-title" className="mt-1 text-2xl leading-tight font-bold md:text-4xl">
          {article.title}
        </h2>
        <p className="mt-2 line-clamp-3 max-w-3xl text-sm text-slate-100 md:text-base">
          {article.excerpt}
        </p>
        <Link
          to={`/article/${article.id}`}
          className="mt-4 inline-block rounded bg-white px-5 py-2 font-semibold text-brand-dark hover:bg-slate-100"
        >
          Read Full Story<span className="sr-only"> about {article.title}</span>
        </Link>
      </div>
    </article>
  );
}

function UpcomingEvents({ events }: { events: readonly ListedEvent[] }) {
  return (
    <SidebarBox id="community-events" title="Upcoming Events">
      <ul className="mt-3 space-y-4">
        {events.map((event) => (
          <li key={event.title} className="border-l-4 border-brand pl-3">
            <h3 className="font-semibold">{event.title}</h3>
            <p className="text-sm text-slate-700">
              <time dateTime={event.date}>{formatLongDate(event.date)}</time>, {event.time} ·{" "}
              {event.place}
            </p>
            <p className="mt-1 text-sm">{event.description}</p>
          </li>
        ))}
      </ul>
    </SidebarBox>
  );
}

export default function Community({ loaderData }: Route.ComponentProps) {
  const [hero, ...stories] = loaderData.articles;
  const { poll, events, resources } = loaderData.community;
  return (
    <>
      <PageHeading lead="Stories, events and resources from neighborhoods across San Diego.">
        {COMMUNITY.heading}
      </PageHeading>
      {hero ? <Hero article={hero} /> : null}
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Section title="Community Stories" className="min-w-0">
          <StoryList
            articles={stories}
            id="community-story"
            toggleLabel={null}
            empty="No community stories yet."
            listClassName="grid gap-6 sm:grid-cols-2"
            cardSlot={PICTURE_SLOTS.cardTwoColumnsBesideSidebar}
            ads="community"
          />
        </Section>
        <div className="flex flex-col gap-8">
          <Poll poll={poll} initial={loaderData.poll} formToken={loaderData.pollToken} />
          <UpcomingEvents events={events} />
          <OutsideLinks title="Community Resources" links={resources} />
          <PageAds kind="community" at="sidebar" />
        </div>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorState heading={COMMUNITY.heading} message={errorText(COMMUNITY.name)} />;
}
