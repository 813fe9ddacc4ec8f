import { Form } from "react-router";
import { AUDIT_KINDS, auditSentence, isAuditKind } from "../../../server/newsroom/audit-log";
import { auditAuthors, auditPage } from "../../../server/staff/audit";
import { requireAdmin } from "../../../server/staff/guard";
import { FIELD, Field, formatStaffTime, PRIMARY_BUTTON } from "../../components/NewsroomNotice";
import { PageLinks } from "../../components/PageLinks";
import type { Route } from "./+types/audit";
import { addressWith, newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Audit log");

/** The filters' two selects, side by side on a wide screen (after their name and value, as written). */
const FILTER = {
  labelClassName: "flex min-w-0 flex-1 basis-56 flex-col gap-1 font-semibold",
  className: `${FIELD} min-w-0`,
};

const asJson = (state: unknown) => (state === null ? null : JSON.stringify(state, null, 1));

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const params = new URL(request.url).searchParams;
  const kindParam = params.get("kind");
  const kind = isAuditKind(kindParam) ? kindParam : null;
  const authors = await auditAuthors(context.db);
  const whoParam = params.get("who");
  const who = whoParam !== null && authors.includes(whoParam) ? whoParam : null;
  const asked = Number(params.get("page") ?? 1);
  const found = await auditPage(context.db, {
    who,
    actions: kind === null ? null : AUDIT_KINDS[kind].actions,
    page: Number.isInteger(asked) ? Math.min(asked, 1_000_000) : 1,
  });
  return {
    who,
    kind,
    authors,
    kinds: Object.entries(AUDIT_KINDS).map(([key, { label }]) => ({ key, label })),
    total: found.total,
    page: found.page,
    pages: found.pages,
    // Told here, on the server, so the page reads the same however the browser formats times.
    entries: found.entries.map((e) => ({
      id: e.id,
      sentence: auditSentence(e, formatStaffTime),
      at: e.at.toISOString(),
      when: formatStaffTime(e.at.toISOString()),
      action: e.action,
      subject: e.subject,
      before: asJson(e.before),
      after: asJson(e.after),
    })),
  };
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { who, kind, authors, kinds, entries, total, page, pages } = loaderData;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Audit log</h1>
      <p className="text-slate-700">
        Every staff action, newest first, in San Diego time. Nobody can change it from here.
      </p>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <Field
          label="Who"
          name="who"
          defaultValue={who ?? ""}
          {...FILTER}
          options={[["", "Everyone"], ...authors.map((email) => [email, email] as const)]}
        />
        <Field
          label="What"
          name="kind"
          defaultValue={kind ?? ""}
          {...FILTER}
          options={[["", "Every kind of action"], ...kinds.map((k) => [k.key, k.label] as const)]}
        />
        <button type="submit" className={PRIMARY_BUTTON}>
          Show
        </button>
      </Form>
      <h2 className="text-xl font-bold">{`${total} ${total === 1 ? "entry" : "entries"}`}</h2>
      {entries.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <ol
          aria-label="Entries"
          className="divide-y divide-slate-200 rounded ring-1 ring-slate-200"
        >
          {entries.map((e) => (
            <li key={e.id} className="p-3">
              <p className="break-words">
                {`${e.sentence} — `}
                <time dateTime={e.at} className="whitespace-nowrap text-slate-700">
                  {e.when}
                </time>
              </p>
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer text-slate-700">Details</summary>
                <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
                  <dt className="font-semibold">Action</dt>
                  <dd className="font-mono break-all">{e.action}</dd>
                  {e.subject ? (
                    <>
                      <dt className="font-semibold">On</dt>
                      <dd className="font-mono break-all">{e.subject}</dd>
                    </>
                  ) : null}
                  {e.before ? (
                    <>
                      <dt className="font-semibold">Before</dt>
                      <dd>
                        <pre className="font-mono break-all whitespace-pre-wrap">{e.before}</pre>
                      </dd>
                    </>
                  ) : null}
                  {e.after ? (
                    <>
                      <dt className="font-semibold">After</dt>
                      <dd>
                        <pre className="font-mono break-all whitespace-pre-wrap">{e.after}</pre>
                      </dd>
                    </>
                  ) : null}
                </dl>
              </details>
            </li>
          ))}
        </ol>
      )}
      <PageLinks
        label="Pages of the audit log"
        page={page}
        pages={pages}
        href={(n) => addressWith("/newsroom/audit", { who, kind, page: n > 1 && n })}
        previous="Newer"
        next="Older"
        className="flex items-center gap-4"
        linkClassName="underline"
      />
    </div>
  );
}
