import { data, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf, typedText } from "../../../server/newsroom/form-input";
import { bannerAction } from "../../../server/newsroom/forms";
import { bannerRow, clearBanner, setBanner } from "../../../server/newsroom/banner";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import {
  MAX_BANNER_DAYS,
  MAX_BANNER_LINK_LENGTH,
  MAX_BANNER_TEXT_LENGTH,
  MIN_BANNER_MINUTES,
} from "../../../shared/newsroom";
import { dateToSanDiegoLocal, sanDiegoLocalToDate } from "../../../shared/san-diego-time";
import {
  BUTTON,
  FIELD,
  Field,
  formatStaffTime,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "../../components/NewsroomNotice";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/banner";
import { doneMessage, newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Breaking banner");

const DONE = {
  set: "The banner is up on the home page.",
  clear: "The banner is cleared: the home page shows the site's own text, if it has one.",
} as const;

/** How long a new banner is offered to last. */
const DEFAULT_HOURS = 6;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const now = new Date();
  const stored = await bannerRow(context.db);
  return {
    banner: stored && {
      text: stored.text,
      link: stored.link,
      expiresAt: stored.expiresAt.toISOString(),
      expires: dateToSanDiegoLocal(stored.expiresAt),
      live: stored.expiresAt.getTime() > now.getTime(),
      setBy: stored.setBy,
    },
    siteText: context.content.site.breaking,
    // The field's bounds and default, on San Diego's clock.
    earliest: dateToSanDiegoLocal(new Date(now.getTime() + MIN_BANNER_MINUTES * 60_000)),
    latest: dateToSanDiegoLocal(new Date(now.getTime() + MAX_BANNER_DAYS * 86_400_000)),
    suggested: dateToSanDiegoLocal(new Date(now.getTime() + DEFAULT_HOURS * 3_600_000)),
    done: doneMessage(request, DONE),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const banner = actionOf(bannerAction, form);
  const result =
    banner.intent === "set"
      ? await setBanner(context, session.member, {
          text: banner.text,
          link: banner.link,
          expiresAt: sanDiegoLocalToDate(banner.expires),
        })
      : await clearBanner(context, session.member);
  if (!result.ok) {
    // What was typed, to try again with.
    const typed = (name: string) => typedText(form, name);
    return data(
      { error: result.error, text: typed("text"), link: typed("link"), expires: typed("expires") },
      { status: 400 },
    );
  }
  throw redirect(`/newsroom/banner?done=${banner.intent}`, 303);
}

export default function Banner({ loaderData, actionData }: Route.ComponentProps) {
  const { banner, siteText, earliest, latest, suggested, done } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Breaking banner</h1>
      <p className="text-slate-700">
        The red banner at the top of the home page. Yours shows at once on every page load until its
        end, then the site&apos;s own text comes back
        {siteText ? <> (“{siteText}”)</> : " (the site has none, so no banner shows)"}.
      </p>
      <NewsroomNotice done={done} error={actionData?.error} />

      <Panel id="now-heading" title="On the home page now" boxed>
        {banner?.live ? (
          <div className="mt-3 flex flex-col gap-3">
            <p className="rounded bg-red-700 px-4 py-2 break-words text-white">
              <strong className="mr-2 uppercase">Breaking</strong>
              {banner.text}
            </p>
            <p className="text-sm break-words text-slate-700">
              {banner.link ? <>Links to {banner.link}. </> : "No link. "}
              Until {formatStaffTime(banner.expiresAt)} (San Diego time), set by {banner.setBy}.
            </p>
            <NewsroomForm>
              <button type="submit" name="intent" value="clear" className={BUTTON}>
                Clear the banner
              </button>
            </NewsroomForm>
          </div>
        ) : (
          <p className="mt-3">
            {siteText
              ? "The site's own text. Set a banner below to replace it."
              : "No banner. Set one below."}
            {banner ? ` The last one ended ${formatStaffTime(banner.expiresAt)}.` : ""}
          </p>
        )}
      </Panel>

      <Panel id="set-heading" title={banner?.live ? "Change the banner" : "Set a banner"} boxed>
        <NewsroomForm intent="set" className="mt-3 flex flex-col gap-4">
          <Field
            label="Text"
            type="text"
            name="text"
            required
            minLength={3}
            maxLength={MAX_BANNER_TEXT_LENGTH}
            defaultValue={actionData?.text ?? (banner?.live ? banner.text : "")}
          />
          <label className="flex flex-col gap-1 font-semibold">
            <span>
              Link <span className="font-normal text-slate-700">(optional)</span>
            </span>
            <input
              type="text"
              name="link"
              inputMode="url"
              maxLength={MAX_BANNER_LINK_LENGTH}
              aria-describedby="link-help"
              defaultValue={actionData?.link ?? (banner?.live ? (banner.link ?? "") : "")}
              className={FIELD}
            />
            <span id="link-help" className="text-sm font-normal text-slate-700">
              An address starting with https:// or http://, or a page of this site such as
              /local-news.
            </span>
          </label>
          <Field
            label="Ends (San Diego time)"
            type="datetime-local"
            name="expires"
            required
            min={earliest}
            max={latest}
            aria-describedby="expires-help"
            defaultValue={actionData?.expires ?? (banner?.live ? banner.expires : suggested)}
            className={`${FIELD} max-w-full`}
          >
            <span id="expires-help" className="text-sm font-normal text-slate-700">
              From {MIN_BANNER_MINUTES} minutes to {MAX_BANNER_DAYS} days from now.
            </span>
          </Field>
          <p>
            <button type="submit" className={PRIMARY_BUTTON}>
              Put the banner up
            </button>
          </p>
        </NewsroomForm>
      </Panel>
    </div>
  );
}
