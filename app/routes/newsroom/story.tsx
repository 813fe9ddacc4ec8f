import { data, Link, redirect, useLocation } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { readAction, typedText } from "../../../server/newsroom/form-input";
import {
  DONE,
  isStoryIntent,
  runStoryAction,
  storyAction,
} from "../../../server/newsroom/story-form";
import { storyDetail } from "../../../server/newsroom/story-reads";
import { groupVersions } from "../../../server/newsroom/story-groups";
import { MAX_HEADLINE_LENGTH, MAX_PINS } from "../../../shared/newsroom";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { categoryByKey } from "../../../shared/categories";
import { ArticleImage } from "../../components/ArticleImage";
import type { PictureSlot } from "../../components/picture-slots";
import {
  BUTTON,
  Field,
  formatStaffTime,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "../../components/NewsroomNotice";
import { PinHoursSelect } from "../../components/PinHoursSelect";
import { StoryTextAction } from "../../components/StoryTextAction";
import { StoryCorrections } from "../../components/StoryCorrections";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/story";
import { newsroomMeta } from "../../lib/newsroom-meta";

/** The picture choices' previews: two side by side from sm on, each at most 20rem. */
const NEWSROOM_CHOICE_SLOT: PictureSlot = {
  sizes: "(min-width: 640px) 20rem, 100vw",
  maxWidth: 400,
  shape: "wide",
};

export const meta: Route.MetaFunction = newsroomMeta("Story");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const story = await storyDetail(context.db, params.id);
  if (!story) throw data("There is no story with that id.", { status: 404 });
  const versions = await groupVersions(context.db, params.id);
  const done = new URL(request.url).searchParams.get("done");
  return { story, versions, done: isStoryIntent(done) ? DONE[done] : null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const read = readAction(storyAction, form);
  const intent = typedText(form, "intent");
  const result = read.ok
    ? await runStoryAction(context, session.member, read.data, params.id)
    : read;
  if (!result.ok) return data({ intent, error: result.error }, { status: 400 });
  throw redirect(`/newsroom/stories/${encodeURIComponent(params.id)}?done=${intent}`, 303);
}

/** A boxed part of the story's page, what it holds one under another. */
function StoryPanel(props: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Panel id={props.id} title={props.title} boxed>
      <div className="mt-3 flex flex-col gap-3">{props.children}</div>
    </Panel>
  );
}

export default function Story({ loaderData, actionData }: Route.ComponentProps) {
  const { story, versions, done } = loaderData;
  const errorFor = (intent: string) =>
    actionData?.intent === intent ? actionData.error : undefined;
  const panelError = (intents: string[]) =>
    intents.includes(actionData?.intent ?? "") ? (
      <NewsroomNotice error={actionData?.error} />
    ) : null;
  // A new key after each change: every form is drawn anew from what was saved, with JavaScript
  // too, as after a full page load (a published correction's words are not left to be sent twice);
  // a refused form keeps what was typed.
  const { key } = useLocation();
  return (
    <div key={key} className="flex flex-col gap-6">
      <p>
        <Link to="/newsroom/stories" className="underline">
          ← All stories
        </Link>
      </p>
      <div>
        <h1 className="text-2xl font-bold break-words">{story.title}</h1>
        <p className="mt-1 flex flex-wrap gap-x-3 text-sm text-slate-700">
          <span>{categoryByKey(story.category).name}</span>
          <span>By {story.author}</span>
          <time dateTime={story.publishedAt}>{formatStaffTime(story.publishedAt)}</time>
        </p>
        <p className="mt-2 text-sm break-all">
          Original: <span className="font-mono">{story.link}</span>
          {story.feedUrl ? (
            <>
              <br />
              Feed: <span className="font-mono">{story.feedUrl}</span>
            </>
          ) : null}
        </p>
        {story.siteLink ? (
          <p className="mt-2">
            <a href={story.siteLink} className="underline">
              View on site
            </a>
          </p>
        ) : null}
      </div>
      <NewsroomNotice done={done} />

      <StoryPanel id="status-heading" title={story.takenDown ? "Taken down" : "On the site"}>
        {panelError(["take-down", "restore"])}
        {story.takenDown ? (
          <>
            <p>
              Down since {formatStaffTime(story.takenDown.at)}. Reason:{" "}
              <span className="break-words">{story.takenDown.reason}</span>
            </p>
            <p className="text-sm text-slate-700">
              Its address answers 410 Gone; the feed can bring it back without it showing.
            </p>
            <NewsroomForm>
              <button type="submit" name="intent" value="restore" className={PRIMARY_BUTTON}>
                Restore the story
              </button>
            </NewsroomForm>
          </>
        ) : (
          <NewsroomForm className="flex flex-col gap-3">
            <StoryTextAction intent="take-down" />
          </NewsroomForm>
        )}
      </StoryPanel>

      <StoryPanel id="headline-heading" title="Headline">
        {panelError(["headline"])}
        <p>
          The feed&apos;s headline:{" "}
          <span className="break-words">{story.feedTitle ?? story.title}</span>
        </p>
        {story.feedTitle !== null ? (
          <p>
            Shown instead: <strong className="break-words">{story.title}</strong>
          </p>
        ) : null}
        <NewsroomForm intent="headline" className="flex flex-col gap-3">
          <Field
            label="Our headline"
            type="text"
            name="headline"
            maxLength={MAX_HEADLINE_LENGTH}
            defaultValue={story.feedTitle !== null ? story.title : ""}
            aria-invalid={errorFor("headline") ? true : undefined}
          />
          <p className="flex flex-wrap gap-2">
            <button type="submit" className={PRIMARY_BUTTON}>
              Save the headline
            </button>
            {story.feedTitle !== null ? (
              <button type="submit" name="use-feed" value="1" className={BUTTON}>
                Use the feed&apos;s headline
              </button>
            ) : null}
          </p>
        </NewsroomForm>
      </StoryPanel>

      <StoryPanel id="picture-heading" title="Picture">
        {panelError(["picture"])}
        <NewsroomForm intent="picture" className="flex flex-col gap-3">
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="sr-only">The picture the story shows</legend>
            {(["feed", "default"] as const).map((choice) => (
              <label key={choice} className="flex flex-col gap-2 rounded p-2 ring-1 ring-slate-200">
                <span className="flex items-center gap-2 font-semibold">
                  <input
                    type="radio"
                    name="picture"
                    value={choice}
                    defaultChecked={story.defaultPicture === (choice === "default")}
                  />
                  {choice === "feed" ? "The feed's picture" : "The default picture"}
                </span>
                {choice === "feed" && !story.image ? (
                  <span className="text-sm text-slate-700">The feed gives no picture.</span>
                ) : (
                  <ArticleImage
                    picture={choice === "feed" ? story.feedPicture : null}
                    alt=""
                    slot={NEWSROOM_CHOICE_SLOT}
                    width={400}
                    height={225}
                    className="aspect-video w-full rounded bg-slate-200 object-cover"
                  />
                )}
              </label>
            ))}
          </fieldset>
          <p>
            <button type="submit" className={PRIMARY_BUTTON}>
              Save the picture choice
            </button>
          </p>
        </NewsroomForm>
      </StoryPanel>

      {story.takenDown ? null : (
        <StoryPanel id="group-heading" title="Story group">
          {panelError(["group-split", "group-join", "group-lead"])}
          {versions.length > 0 ? (
            <>
              <p className="text-sm text-slate-700">
                Other feeds carry the same story. Lists show the lead, with “also covered by” the
                other outlets; the article page lists every version.
              </p>
              <ul className="flex flex-col gap-1">
                {versions.map((v) => (
                  <li key={v.id}>
                    {v.id === story.id ? (
                      <span className="font-semibold">This story</span>
                    ) : (
                      <Link
                        to={`/newsroom/stories/${encodeURIComponent(v.id)}`}
                        className="underline"
                      >
                        {v.title}
                      </Link>
                    )}{" "}
                    <span className="text-sm text-slate-700">
                      ({v.source}, {categoryByKey(v.category).name}
                      {v.lead ? ", the lead" : ""})
                    </span>
                  </li>
                ))}
              </ul>
              <NewsroomForm className="flex flex-wrap gap-3">
                {versions.some((v) => v.id === story.id && !v.lead) ? (
                  <button type="submit" name="intent" value="group-lead" className={BUTTON}>
                    Make this story the lead
                  </button>
                ) : null}
                <button type="submit" name="intent" value="group-split" className={BUTTON}>
                  Split it from the group
                </button>
              </NewsroomForm>
            </>
          ) : (
            <p className="text-sm text-slate-700">
              This story stands alone: no other feed&apos;s version is grouped with it.
            </p>
          )}
          <NewsroomForm intent="group-join" className="flex flex-wrap items-end gap-3">
            <Field
              label="Join it with another story (its id or its address on the site)"
              labelClassName="flex min-w-0 flex-1 flex-col gap-1 font-semibold"
              name="other"
              required
              maxLength={300}
              aria-invalid={errorFor("group-join") ? true : undefined}
            />
            <button type="submit" className={PRIMARY_BUTTON}>
              Join
            </button>
          </NewsroomForm>
        </StoryPanel>
      )}

      <StoryPanel id="pin-heading" title="Pin to the home page">
        {panelError(["pin", "unpin"])}
        {story.pin ? (
          <p>
            {`Pinned at place ${story.pin.position} until ${formatStaffTime(story.pin.expiresAt)}.`}
          </p>
        ) : (
          <p className="text-sm text-slate-700">
            Up to {MAX_PINS} stories lead the slider and Today&apos;s Headlines, in the order set on
            the Stories page.
          </p>
        )}
        <NewsroomForm className="flex flex-wrap items-end gap-3">
          <PinHoursSelect pinned={story.pin !== null} />
          {story.pin ? (
            <button type="submit" name="intent" value="unpin" className={BUTTON}>
              Unpin
            </button>
          ) : null}
        </NewsroomForm>
      </StoryPanel>

      <StoryPanel id="corrections-heading" title="Corrections">
        {panelError(["correct", "correction-edit", "correction-retract"])}
        <StoryCorrections shown={story.corrections} retracted={story.retractedCorrections} />
        <NewsroomForm className="flex flex-col gap-3">
          <StoryTextAction intent="correct" />
        </NewsroomForm>
      </StoryPanel>
    </div>
  );
}
