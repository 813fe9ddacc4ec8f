import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf, typedText } from "../../../server/newsroom/form-input";
import { focusClick } from "../../../server/newsroom/forms";
import { bodyAsMarkdown, sanitizeBody } from "../../../server/newsroom/post-body";
import { readPostForm, STORY_CATEGORIES } from "../../../server/newsroom/post-form";
import { listMedia, mediaById, postById, siteLinkOf } from "../../../server/newsroom/post-reads";
import { publishPost, saveDraft, unpublishPost } from "../../../server/newsroom/posts";
import { focusFromClick, setFocus, uploadPicture } from "../../../server/newsroom/media";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { dateToSanDiegoLocal, sanDiegoLocalToDate } from "../../../shared/san-diego-time";
import { uploadedPicture } from "../../../shared/picture";
import { PostEditorForm, type PostFormValues } from "../../components/PostEditorForm";
import { FOCUS_PICKER_WIDTH } from "../../components/PostPictureBox";
import { doneMessage, newsroomMeta } from "../../lib/newsroom-meta";
import type { Route } from "./+types/post";

/**
 * A story or blog post in the newsroom's editor (decision 028): one form that works without
 * JavaScript (Markdown, a file input for the picture, a picture to click for its focal point) and
 * with it (the rich editor, autosave). Its body may carry a picture, hence the upload body limit.
 */
export const handle = { body: "upload" };
export const meta: Route.MetaFunction = newsroomMeta("Editor");

/**
 * An autosave changes nothing the page shows but the status line (which reads the fetcher's
 * answer): the page's data is not read again under the writer's cursor.
 */
export function shouldRevalidate({
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formData?.get("intent") === "autosave" ? false : defaultShouldRevalidate;
}

const DONE: Record<string, string> = {
  created: "A new draft. Nothing here is public until you publish it.",
  save: "Saved. Nothing changes on the site until you publish.",
  publish: "Published: it is on the site now.",
  schedule: "Scheduled: it goes on the site at the time you chose.",
  unpublish: "Taken off the site. The draft and its revisions stay here.",
  unschedule: "No longer scheduled: it stays a draft until you publish or schedule it.",
  focus: "The focal point is set: every crop of the picture keeps it in frame.",
};

const postId = (params: { id?: string }) => {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw data("There is no such story or post.", { status: 404 });
  return id;
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const post = await postById(context.db, postId(params));
  if (!post) throw data("There is no such story or post.", { status: 404 });
  const library = await listMedia(context.db, { limit: 48 });
  const chosenId = post.draft.mediaId;
  const chosen =
    chosenId === null
      ? null
      : (library.find((m) => m.id === chosenId) ?? (await mediaById(context.db, chosenId)));
  if (chosen && !library.some((m) => m.id === chosen.id)) library.unshift(chosen);
  const now = new Date();
  return {
    post: {
      id: post.id,
      kind: post.kind,
      status: post.status,
      slug: post.slug,
      publishAt: post.publishAt?.toISOString() ?? null,
      firstPublishedAt: post.firstPublishedAt?.toISOString() ?? null,
      siteLink: siteLinkOf(post),
      updatedBy: post.updatedBy,
      updatedAt: post.updatedAt.toISOString(),
    },
    values: {
      ...post.draft,
      bylines: post.draft.bylines.join(", "),
      mediaId: post.draft.mediaId === null ? "" : String(post.draft.mediaId),
      category: post.draft.category ?? "",
      slug: post.slug ?? "",
      body: bodyAsMarkdown(post.draft.bodyHtml),
    } satisfies PostFormValues,
    library: library.map((m) => ({
      id: m.id,
      alt: m.alt,
      credit: m.credit,
      filename: m.filename,
      picture: uploadedPicture(m),
    })),
    categories: STORY_CATEGORIES,
    suggestedTime: dateToSanDiegoLocal(new Date(now.getTime() + 60 * 60_000)),
    earliestTime: dateToSanDiegoLocal(now),
    done: doneMessage(request, DONE),
  };
}

/** What was typed, as typed, so a form sent back with an error loses nothing. */
function typedValues(form: FormData, siteUrl: string): PostFormValues {
  const names = [
    "title",
    "dek",
    "description",
    "category",
    "bylines",
    "mediaId",
    "pictureAlt",
    "pictureCredit",
    "videoUrl",
    "shortTailKeywords",
    "longTailKeywords",
    "slug",
  ] as const;
  const values = Object.fromEntries(names.map((name) => [name, typedText(form, name)]));
  // The body both ways: the rich editor starts from HTML, the plain text area from Markdown.
  const raw = typedText(form, "body");
  const html = typedText(form, "bodyFormat") === "html";
  const bodyHtml = sanitizeBody(raw, html ? "html" : "markdown", siteUrl);
  return {
    ...(values as Record<(typeof names)[number], string>),
    body: html ? bodyAsMarkdown(bodyHtml) : raw,
    bodyHtml,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const id = postId(params);
  const post = await postById(context.db, id);
  if (!post) throw data("There is no such story or post.", { status: 404 });
  const actor = session.member;
  const services = { ...context, siteUrl: context.config.siteUrl };
  const clicked = form.has("focus.x");
  const intent = clicked ? "focus" : typedText(form, "intent") || "save";
  const fail = (error: string, fieldErrors = {}) =>
    data(
      { error, fieldErrors, values: typedValues(form, context.config.siteUrl), autosaved: null },
      { status: 400 },
    );

  if (intent === "unpublish") {
    const result = await unpublishPost(context, actor, id);
    if (!result.ok) return fail(result.error);
    const done = post.status === "scheduled" ? "unschedule" : "unpublish";
    throw redirect(`/newsroom/posts/${id}?done=${done}`, 303);
  }
  if (!["save", "autosave", "publish", "schedule", "focus"].includes(intent)) {
    throw data("Unknown action.", { status: 400 });
  }

  // Every other button sends the whole form: it is saved first, so what is published is what
  // the writer sees.
  const read = readPostForm(form, post.kind, context.config.siteUrl);
  if (!read.ok) return fail("Nothing was saved: see the fields marked below.", read.errors);
  const fields = { ...read.fields };
  // A picture chosen with the form joins the library only when the draft itself can be saved.
  const file = form.get("picture");
  if (file instanceof File && file.size > 0) {
    const uploaded = await uploadPicture(
      { ...context, uploadMaxBytes: context.config.pictures.uploadMaxBytes },
      actor,
      file,
      { alt: fields.pictureAlt, credit: fields.pictureCredit },
    );
    if (!uploaded.ok) return fail(uploaded.error, { picture: uploaded.error });
    fields.mediaId = uploaded.mediaId;
  }
  const saved = await saveDraft(context, actor, id, {
    fields,
    slug: read.slug,
    autosave: intent === "autosave",
  });
  if (!saved.ok) return fail(saved.error);
  if (intent === "autosave") {
    return { error: null, fieldErrors: {}, values: null, autosaved: saved.message };
  }

  if (intent === "focus") {
    const media = fields.mediaId === null ? null : await mediaById(context.db, fields.mediaId);
    if (!media) return fail("Choose a picture first.");
    const focus = focusFromClick(actionOf(focusClick, form), media, FOCUS_PICKER_WIDTH);
    const result = await setFocus(context, actor, media.id, focus);
    if (!result.ok) return fail(result.error);
    throw redirect(`/newsroom/posts/${id}?done=focus#picture`, 303);
  }
  if (intent === "publish" || intent === "schedule") {
    let at: Date | null = null;
    if (intent === "schedule") {
      const given = typedText(form, "publishAt");
      at = sanDiegoLocalToDate(given);
      if (!at) return fail("Give the date and time to publish, San Diego time.");
      if (dateToSanDiegoLocal(at) !== given.trim()) {
        return fail(
          "San Diego's clocks skip that time (they go forward an hour that night): choose another.",
        );
      }
      if (at.getTime() <= Date.now()) return fail("Choose a time still to come, or publish now.");
    }
    const result = await publishPost(services, actor, id, at);
    if (!result.ok) return fail(result.error);
    throw redirect(`/newsroom/posts/${id}?done=${intent}`, 303);
  }
  throw redirect(`/newsroom/posts/${id}?done=save`, 303);
}

export default function PostEditor({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <PostEditorForm
      {...loaderData}
      values={actionData?.values ?? loaderData.values}
      error={actionData?.error ?? null}
      fieldErrors={actionData?.fieldErrors ?? {}}
    />
  );
}
