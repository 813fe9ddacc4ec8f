import { data, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf } from "../../../server/newsroom/form-input";
import { focusClick, mediaWords } from "../../../server/newsroom/forms";
import { focusFromClick, setFocus, setMediaWords } from "../../../server/newsroom/media";
import { mediaById } from "../../../server/newsroom/post-reads";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { cropPath, uploadedPicture } from "../../../shared/picture";
import { POST_LIMITS } from "../../../shared/post-fields";
import { BUTTON, Field, NewsroomNotice } from "../../components/NewsroomNotice";
import { FOCUS_PICKER_WIDTH, FocusPicker } from "../../components/FocusPicker";
import { doneMessage, newsroomMeta } from "../../lib/newsroom-meta";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/media-item";

export const meta: Route.MetaFunction = newsroomMeta("Picture");

const DONE: Record<string, string> = {
  uploaded: "Uploaded. Select its focal point and check its words.",
  focus: "The focal point is set: every crop keeps it in frame.",
  words: "Saved.",
};

const idOf = (value: string | undefined) => {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw data("That picture is not in the library.", { status: 404 });
  return id;
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const media = await mediaById(context.db, idOf(params.id));
  if (!media) throw data("That picture is not in the library.", { status: 404 });
  const picture = uploadedPicture(media);
  return {
    media: { id: media.id, alt: media.alt, credit: media.credit, filename: media.filename },
    picture,
    crops: (["16x9", "4x3", "1x1", "og"] as const).map((crop) => ({
      crop,
      src: cropPath(media.hash, crop, picture.focus),
    })),
    done: doneMessage(request, DONE),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const id = idOf(params.id);
  const media = await mediaById(context.db, id);
  if (!media) throw data("That picture is not in the library.", { status: 404 });
  if (form.has("focus.x")) {
    const focus = focusFromClick(actionOf(focusClick, form), media, FOCUS_PICKER_WIDTH);
    const result = await setFocus(context, session.member, id, focus);
    if (!result.ok) return data({ error: result.error }, { status: 400 });
    throw redirect(`/newsroom/media/${id}?done=focus`, 303);
  }
  const result = await setMediaWords(context, session.member, id, actionOf(mediaWords, form));
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect(`/newsroom/media/${id}?done=words`, 303);
}

const CROP_NAMES = {
  "16x9": "16:9 card",
  "4x3": "4:3",
  "1x1": "1:1",
  og: "Social preview",
} as const;

export default function MediaItem({ loaderData, actionData }: Route.ComponentProps) {
  const { media, picture, crops } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold break-words">{media.alt || media.filename || "Picture"}</h1>
      <p>
        <Link to="/newsroom/media" className="text-brand underline">
          Back to the library
        </Link>
      </p>
      <NewsroomNotice done={loaderData.done} error={actionData?.error} />
      <Panel id="focus-heading" title="Focal point" className="flex flex-col gap-2" small>
        <p id="focus-hint" className="text-sm">
          Select the point that must stay in every crop.
        </p>
        <NewsroomForm className="flex">
          <FocusPicker
            picture={picture}
            name={media.alt || media.filename || "the picture"}
            hintId="focus-hint"
          />
        </NewsroomForm>
        <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {crops.map((c) => (
            <li key={c.crop} className="flex flex-col gap-1 text-sm">
              <img
                src={c.src}
                alt=""
                loading="lazy"
                className="w-full rounded ring-1 ring-slate-200"
              />
              {CROP_NAMES[c.crop]}
            </li>
          ))}
        </ul>
      </Panel>
      <Panel id="words-heading" title="Words" boxed small>
        <NewsroomForm className="mt-3 flex flex-col gap-3">
          <Field
            label="Alt text (what the picture shows)"
            type="text"
            name="alt"
            defaultValue={media.alt}
            maxLength={POST_LIMITS.pictureAlt}
          />
          <Field
            label="Credit"
            type="text"
            name="credit"
            defaultValue={media.credit}
            maxLength={POST_LIMITS.pictureCredit}
          />
          <button type="submit" className={`${BUTTON} self-start`}>
            Save
          </button>
        </NewsroomForm>
      </Panel>
    </div>
  );
}
