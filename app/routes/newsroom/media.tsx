import { data, Form, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { readAction, storedId } from "../../../server/newsroom/form-input";
import { mediaUpload } from "../../../server/newsroom/forms";
import { uploadPicture } from "../../../server/newsroom/media";
import { listMedia, MEDIA_PAGE_SIZE } from "../../../server/newsroom/post-reads";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { fallbackVariant } from "../../../shared/picture";
import { BUTTON, Field, NewsroomNotice, PRIMARY_BUTTON } from "../../components/NewsroomNotice";
import { newsroomMeta } from "../../lib/newsroom-meta";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/media";

/** The media library: uploads (hence the upload body limit), search, and the way to each picture. */
export const handle = { body: "upload" };
export const meta: Route.MetaFunction = newsroomMeta("Media library");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const query = (params.get("q") ?? "").slice(0, 100);
  // The last record of the page before: a stored id, else the first page (1.5 or 1e400 was a 500).
  const before = storedId.safeParse(params.get("before") ?? "").data;
  const items = await listMedia(context.db, { query, before, limit: MEDIA_PAGE_SIZE + 1 });
  return {
    query,
    items: items.slice(0, MEDIA_PAGE_SIZE).map((m) => ({
      id: m.id,
      alt: m.alt,
      credit: m.credit,
      filename: m.filename,
      uploadedBy: m.uploadedBy,
      thumbnail: fallbackVariant(
        { kind: "stored", hash: m.hash, width: m.width, height: m.height, color: m.color },
        320,
      ),
      color: m.color,
    })),
    next: items.length > MEDIA_PAGE_SIZE ? items[MEDIA_PAGE_SIZE - 1]?.id : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const read = readAction(mediaUpload, form);
  if (!read.ok) return data({ error: read.error }, { status: 400 });
  const { picture, ...words } = read.data;
  const uploaded = await uploadPicture(
    { ...context, uploadMaxBytes: context.config.pictures.uploadMaxBytes },
    session.member,
    picture,
    words,
  );
  if (!uploaded.ok) return data({ error: uploaded.error }, { status: 400 });
  throw redirect(`/newsroom/media/${uploaded.mediaId}?done=uploaded`, 303);
}

export default function MediaLibrary({ loaderData, actionData }: Route.ComponentProps) {
  const { items, query, next } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Media library</h1>
      <NewsroomNotice error={actionData?.error} />
      <Panel id="upload-heading" title="Upload a picture" boxed small>
        <NewsroomForm encType="multipart/form-data" className="mt-3 flex flex-col gap-3">
          <Field
            label="Picture file (JPEG, PNG, WebP, AVIF or GIF)"
            type="file"
            name="picture"
            required
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            className="text-sm font-normal"
          />
          <Field label="Alt text (what the picture shows)" type="text" name="alt" />
          <Field label="Credit" type="text" name="credit" />
          <button type="submit" className={`${PRIMARY_BUTTON} self-start`}>
            Upload
          </button>
        </NewsroomForm>
      </Panel>
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
        <Field
          label="Find by alt text, credit or file name"
          type="search"
          name="q"
          defaultValue={query}
        />
        <button type="submit" className={BUTTON}>
          Find
        </button>
      </Form>
      {items.length === 0 ? (
        <p>{query ? "No picture matches." : "No pictures yet."}</p>
      ) : (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          {items.map((m) => (
            <li key={m.id} className="flex flex-col gap-1">
              <Link to={`/newsroom/media/${m.id}`} className="flex flex-col gap-1 hover:underline">
                <img
                  src={m.thumbnail}
                  alt=""
                  width={320}
                  height={180}
                  loading="lazy"
                  className="aspect-video w-full rounded object-cover"
                  style={{ backgroundColor: m.color }}
                />
                <span className="text-sm font-semibold break-words">
                  {m.alt || m.filename || `Picture ${m.id}`}
                </span>
              </Link>
              <span className="text-xs break-words text-slate-600">
                {m.credit ? `${m.credit} · ` : ""}
                {m.uploadedBy}
              </span>
            </li>
          ))}
        </ul>
      )}
      {next ? (
        <p>
          <Link
            to={`/newsroom/media?${new URLSearchParams({ ...(query ? { q: query } : {}), before: String(next) })}`}
            className="text-brand underline"
          >
            Older pictures
          </Link>
        </p>
      ) : null}
    </div>
  );
}
