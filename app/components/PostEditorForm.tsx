import { useEffect, useRef, type FormEvent } from "react";
import { Link, useFetcher } from "react-router";
import { POST_LIMITS, type PostKind, type PostStatus } from "../../shared/post-fields";
import { fallbackVariant, type StoredPicture } from "../../shared/picture";
import { NewsroomForm } from "../routes/newsroom/layout";
import { BodyField } from "./editor/BodyField";
import { PictureBox } from "./PostPictureBox";
import { PostField as Field } from "./PostField";
import {
  BUTTON,
  DANGER_BUTTON,
  FIELD,
  formatStaffTime,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "./NewsroomNotice";

/** Wait this long after the last keystroke before an autosave. */
const AUTOSAVE_AFTER_MS = 2_500;

/** The form's fields as text, as the loader gives them or as they were typed. */
export interface PostFormValues {
  title: string;
  dek: string;
  description: string;
  category: string;
  bylines: string;
  mediaId: string;
  pictureAlt: string;
  pictureCredit: string;
  videoUrl: string;
  shortTailKeywords: string;
  longTailKeywords: string;
  slug: string;
  /** Markdown, for the plain text area. */
  body: string;
  /** Sanitised HTML, for the rich editor. */
  bodyHtml: string;
}

export interface LibraryPicture {
  id: number;
  alt: string;
  credit: string;
  filename: string;
  picture: StoredPicture;
}

export interface PostEditorProps {
  post: {
    id: number;
    kind: PostKind;
    status: PostStatus;
    publishAt: string | null;
    firstPublishedAt: string | null;
    siteLink: string | null;
    updatedBy: string;
    updatedAt: string;
  };
  values: PostFormValues;
  library: LibraryPicture[];
  categories: { key: string; name: string }[];
  suggestedTime: string;
  earliestTime: string;
  done: string | null;
  error: string | null;
  fieldErrors: Partial<Record<string, string>>;
}

type TextName = Exclude<keyof PostFormValues, "body" | "bodyHtml">;
interface TextControl {
  /** Lines of a text area; a one-line input without. */
  rows?: number;
  type?: "text" | "url";
  maxLength?: number;
  disabled?: boolean;
  className?: string;
}

const STATUS_TEXT: Record<PostStatus, string> = {
  draft: "Draft: not on the site",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished: not on the site",
};

export function PostEditorForm(props: PostEditorProps) {
  const { post, values, library, categories, fieldErrors } = props;
  const story = post.kind === "story";
  const form = useRef<HTMLFormElement>(null);
  const autosave = useAutosave(form);
  const chosen = library.find((m) => String(m.id) === values.mediaId) ?? null;
  // A text field of the form: what was saved or typed in it, its error, and its control's details.
  const text = (name: TextName, label: string, control: TextControl = {}) => (
    <Field label={label} error={fieldErrors[name]} name={name}>
      {control.rows ? (
        <textarea
          name={name}
          rows={control.rows}
          defaultValue={values[name]}
          maxLength={control.maxLength}
          className={FIELD}
        />
      ) : (
        <input
          type={control.type ?? "text"}
          name={name}
          defaultValue={values[name]}
          maxLength={control.maxLength}
          disabled={control.disabled}
          className={control.className ?? FIELD}
        />
      )}
    </Field>
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-bold">{story ? "Story" : "Blog post"}</h1>
        <p className="text-sm">
          <Link to="/newsroom/posts" className="text-brand underline">
            All stories and posts
          </Link>
        </p>
      </div>
      <NewsroomNotice done={props.done} error={props.error} />
      <NewsroomForm
        ref={form}
        encType="multipart/form-data"
        className="grid gap-6 lg:grid-cols-[1fr_22rem]"
        onInput={autosave.schedule}
        onChange={autosave.schedule}
        onSubmit={autosave.cancel}
      >
        <div className="flex min-w-0 flex-col gap-4">
          {text("title", "Headline", {
            maxLength: POST_LIMITS.title,
            className: `${FIELD} text-lg`,
          })}
          {story
            ? text("dek", "Dek (a sentence or two under the headline)", {
                rows: 2,
                maxLength: POST_LIMITS.dek,
              })
            : null}
          <div className="grid gap-4 sm:grid-cols-2">
            {story ? (
              <Field label="Category" error={fieldErrors.category} name="category">
                <select name="category" defaultValue={values.category} className={FIELD}>
                  <option value="">Choose…</option>
                  {categories.map((c) => (
                    <option key={c.key} value={c.key}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            {text("bylines", "Bylines (names, separated by commas)")}
          </div>
          <BodyField
            key={post.id}
            id="post-body"
            label="Body"
            markdown={values.body}
            html={values.bodyHtml}
            pictures={library.map((m) => ({
              id: m.id,
              src: fallbackVariant(m.picture, 960),
              alt: m.alt || m.filename,
            }))}
            error={fieldErrors.bodyHtml}
            onChange={autosave.schedule}
          />
          {text("description", "Meta description (search engines and the blog list show it)", {
            rows: 2,
            maxLength: POST_LIMITS.description,
          })}
          {text("videoUrl", "Video link (YouTube; shown as Watch the Video)", { type: "url" })}
          <div className="grid gap-4 sm:grid-cols-2">
            {text("shortTailKeywords", "Short-tail keywords (comma-separated)")}
            {text("longTailKeywords", "Long-tail keywords (comma-separated)")}
          </div>
          {story
            ? null
            : text(
                "slug",
                "Address (/blog/…; empty: made from the headline, fixed once published)",
                { disabled: post.firstPublishedAt !== null },
              )}
        </div>

        <div className="flex flex-col gap-6">
          <section
            aria-labelledby="publish-heading"
            className="flex flex-col gap-3 rounded p-4 ring-1 ring-slate-200"
          >
            <h2 id="publish-heading" className="text-lg font-bold">
              Publish
            </h2>
            <p className="text-sm">
              <strong>{STATUS_TEXT[post.status]}</strong>
              {post.status === "scheduled" && post.publishAt
                ? `: ${formatStaffTime(post.publishAt)} (San Diego time)`
                : null}
              {post.siteLink ? (
                <>
                  {" "}
                  <Link to={post.siteLink} className="text-brand underline">
                    View on the site
                  </Link>
                </>
              ) : null}
            </p>
            <p className="text-xs text-slate-600" role="status" aria-live="polite">
              {autosave.status ??
                `Last saved ${formatStaffTime(post.updatedAt)} by ${post.updatedBy}.`}
            </p>
            <div className="flex flex-wrap gap-2">
              <button type="submit" name="intent" value="save" className={BUTTON}>
                Save draft
              </button>
              <button type="submit" name="intent" value="publish" className={PRIMARY_BUTTON}>
                {post.status === "published" ? "Update on the site" : "Publish now"}
              </button>
            </div>
            <div className="flex flex-wrap items-end gap-2">
              <label className="flex flex-col gap-1 text-sm font-semibold">
                Publish at (San Diego time)
                <input
                  type="datetime-local"
                  name="publishAt"
                  defaultValue={props.suggestedTime}
                  min={props.earliestTime}
                  className={FIELD}
                />
              </label>
              <button type="submit" name="intent" value="schedule" className={BUTTON}>
                Schedule
              </button>
            </div>
            {post.status === "published" || post.status === "scheduled" ? (
              <button
                type="submit"
                name="intent"
                value="unpublish"
                className={`${DANGER_BUTTON} self-start`}
              >
                {post.status === "scheduled" ? "Cancel the schedule" : "Unpublish"}
              </button>
            ) : null}
            <p className="flex flex-wrap gap-4 text-sm">
              <Link to={`/newsroom/posts/${post.id}/preview`} className="text-brand underline">
                Preview
              </Link>
              <Link to={`/newsroom/posts/${post.id}/revisions`} className="text-brand underline">
                Revisions
              </Link>
            </p>
          </section>

          <PictureBox chosen={chosen} library={library} values={values} fieldErrors={fieldErrors}>
            {text("pictureAlt", "Alt text (what the picture shows)", {
              maxLength: POST_LIMITS.pictureAlt,
            })}
            {text("pictureCredit", "Credit", { maxLength: POST_LIMITS.pictureCredit })}
          </PictureBox>
        </div>
      </NewsroomForm>
    </div>
  );
}

/**
 * Saves the draft a moment after the writer stops typing (JavaScript only; the Save button does
 * it without). The file input is left out: a picture is uploaded by Save or Publish.
 */
function useAutosave(form: React.RefObject<HTMLFormElement | null>) {
  const fetcher = useFetcher<{ autosaved: string | null; error: string | null }>();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const schedule = (event?: FormEvent) => {
    if (event && (event.target as HTMLInputElement).type === "file") return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!form.current) return;
      const data = new FormData(form.current);
      data.delete("picture");
      data.set("intent", "autosave");
      void fetcher.submit(data, { method: "post", encType: "multipart/form-data" });
    }, AUTOSAVE_AFTER_MS);
  };
  const status =
    fetcher.state !== "idle"
      ? "Saving…"
      : fetcher.data?.autosaved
        ? `${fetcher.data.autosaved} (draft)`
        : fetcher.data?.error
          ? `Not saved: ${fetcher.data.error}`
          : null;
  // A Save or Publish sends the whole form: an autosave still waiting would follow it with older
  // fields.
  const cancel = () => clearTimeout(timer.current);
  return { schedule, cancel, status };
}
