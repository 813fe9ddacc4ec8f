import { data, Link } from "react-router";
import { postById } from "../../../server/newsroom/post-reads";
import { requireStaff } from "../../../server/staff/guard";
import { newsroomMeta } from "../../lib/newsroom-meta";
import type { Route } from "./+types/post-preview";

export const meta: Route.MetaFunction = newsroomMeta("Preview");

/** The widths the preview shows the draft at: a common phone's and a desk's. */
const WIDTHS = [
  { name: "Phone", width: 375, height: 740 },
  { name: "Desk", width: 1280, height: 800 },
] as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const id = Number(params.id);
  const post = Number.isSafeInteger(id) ? await postById(context.db, id) : null;
  if (!post) throw data("There is no such story or post.", { status: 404 });
  return { id: post.id, title: post.draft.title, kind: post.kind };
}

/**
 * The draft as readers will see it once published, at a phone's and a desk's width: each frame is
 * the reader's page drawn from the draft (routes/newsroom/preview-frame.tsx), never cached or
 * indexed, shown only to signed-in staff.
 */
export default function PostPreview({ loaderData }: Route.ComponentProps) {
  const { id, title } = loaderData;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold break-words">Preview: {title || "(no headline yet)"}</h1>
      <p className="text-slate-700">
        The saved draft as readers will see it once published. Nothing here is public.{" "}
        <Link to={`/newsroom/posts/${id}`} className="text-brand underline">
          Back to the editor
        </Link>
      </p>
      {WIDTHS.map((view) => (
        <section
          key={view.name}
          aria-labelledby={`preview-${view.name}`}
          className="flex flex-col gap-2"
        >
          <h2 id={`preview-${view.name}`} className="text-lg font-bold">
            {view.name}, {view.width} pixels wide
          </h2>
          {/* Wider than a phone's screen: it scrolls, and the keyboard can scroll it too. */}
          <div
            role="region"
            aria-label={`${view.name} preview`}
            tabIndex={0}
            className="max-w-full overflow-x-auto rounded ring-1 ring-slate-300 focus:outline-2 focus:outline-brand"
          >
            <iframe
              src={`/newsroom/preview/${id}`}
              title={`${view.name} preview, ${view.width} pixels wide`}
              width={view.width}
              height={view.height}
              className="block bg-white"
            />
          </div>
        </section>
      ))}
    </div>
  );
}
