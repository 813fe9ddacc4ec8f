import { data, Form, Link, redirect } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { readAction } from "../../../server/newsroom/form-input";
import { revisionToRestore } from "../../../server/newsroom/forms";
import {
  compareFields,
  postById,
  revisionById,
  revisionsOf,
} from "../../../server/newsroom/post-reads";
import { restoreRevision } from "../../../server/newsroom/posts";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import { BUTTON, FIELD, formatStaffTime, NewsroomNotice } from "../../components/NewsroomNotice";
import { newsroomMeta } from "../../lib/newsroom-meta";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/post-revisions";

export const meta: Route.MetaFunction = newsroomMeta("Revisions");

const KIND_NAMES: Record<string, string> = {
  save: "Saved",
  autosave: "Saved automatically",
  publish: "Published",
  restore: "Restored",
};

const idOf = (value: string | null | undefined) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const postId = idOf(params.id);
  const post = postId === null ? null : await postById(context.db, postId);
  if (!post) throw data("There is no such story or post.", { status: 404 });
  const revisions = await revisionsOf(context.db, post.id);
  const search = new URL(request.url).searchParams;
  // Compares a revision with the one before it, or any two chosen.
  const newerId = idOf(search.get("newer")) ?? revisions[0]?.id ?? null;
  const olderId =
    idOf(search.get("older")) ??
    revisions[revisions.findIndex((r) => r.id === newerId) + 1]?.id ??
    null;
  const [newer, older] = await Promise.all([
    newerId === null ? null : revisionById(context.db, post.id, newerId),
    olderId === null ? null : revisionById(context.db, post.id, olderId),
  ]);
  return {
    post: { id: post.id, title: post.draft.title, kind: post.kind },
    revisions: revisions.map((r) => ({ ...r, at: r.at.toISOString() })),
    newerId: newer?.id ?? null,
    olderId: older?.id ?? null,
    changes: newer && older ? compareFields(older.fields, newer.fields) : [],
    done: search.get("done") === "restored" ? "The revision is the draft again." : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const postId = idOf(params.id);
  const read = readAction(revisionToRestore, form);
  if (postId === null || !read.ok) throw data("There is no such revision.", { status: 404 });
  const result = await restoreRevision(context, session.member, postId, read.data.revision);
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect(`/newsroom/posts/${postId}?done=save`, 303);
}

export default function Revisions({ loaderData, actionData }: Route.ComponentProps) {
  const { post, revisions, newerId, olderId, changes } = loaderData;
  const label = (r: (typeof revisions)[number]) =>
    `${formatStaffTime(r.at)}: ${KIND_NAMES[r.kind] ?? r.kind} by ${r.staffEmail}`;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold break-words">
        Revisions of “{post.title || "(no headline yet)"}”
      </h1>
      <p>
        <Link to={`/newsroom/posts/${post.id}`} className="text-brand underline">
          Back to the editor
        </Link>
      </p>
      <NewsroomNotice done={loaderData.done} error={actionData?.error} />
      <Form method="get" className="flex flex-wrap items-end gap-3">
        {(
          [
            ["Compare", "older", olderId],
            ["with", "newer", newerId],
          ] as const
        ).map(([words, name, chosen]) => (
          <label key={name} className="flex max-w-full min-w-0 flex-col gap-1 font-semibold">
            {words}
            <select
              name={name}
              defaultValue={chosen ?? ""}
              className={`${FIELD} w-full max-w-full`}
            >
              {revisions.map((r) => (
                <option key={r.id} value={r.id}>
                  {label(r)}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit" className={BUTTON}>
          Compare
        </button>
      </Form>
      <Panel id="changes-heading" title="What changed" className="flex flex-col gap-3">
        {changes.length === 0 ? (
          <p>No differences.</p>
        ) : (
          <dl className="flex flex-col gap-3">
            {changes.map((change) => (
              <div key={change.field} className="rounded p-3 ring-1 ring-slate-200">
                <dt className="font-semibold">{change.label}</dt>
                <dd className="mt-1 break-words whitespace-pre-wrap">
                  {change.parts.map((part, i) =>
                    part.change === "added" ? (
                      <ins key={i} className="bg-green-100 text-green-900">
                        {part.text}
                      </ins>
                    ) : part.change === "removed" ? (
                      <del key={i} className="bg-red-100 text-red-900">
                        {part.text}
                      </del>
                    ) : (
                      <span key={i}>{part.text}</span>
                    ),
                  )}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Panel>
      <Panel id="all-heading" title="Every save" className="flex flex-col gap-3">
        <ol className="divide-y divide-slate-200 rounded ring-1 ring-slate-200">
          {revisions.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <span className="break-words">
                {label(r)}
                <span className="block text-sm text-slate-600">{r.title || "(no headline)"}</span>
              </span>
              <NewsroomForm>
                <input type="hidden" name="revision" value={r.id} />
                <button type="submit" className={BUTTON}>
                  Restore<span className="sr-only"> the revision of {formatStaffTime(r.at)}</span>
                </button>
              </NewsroomForm>
            </li>
          ))}
        </ol>
      </Panel>
    </div>
  );
}
