import { readAudit } from "../../../server/staff/audit";
import { requireAdmin } from "../../../server/staff/guard";
import type { Route } from "./+types/audit";
import { newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Audit log");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const entries = await readAudit(context.db);
  return {
    entries: entries.map((e) => ({
      id: e.id,
      at: e.createdAt.toISOString(),
      who: e.staffEmail,
      action: e.action,
      subject: e.subject,
      before: e.before === null ? null : JSON.stringify(e.before),
      after: e.after === null ? null : JSON.stringify(e.after),
    })),
  };
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <h1 className="text-2xl font-bold">Audit log</h1>
      <p className="mt-2 text-slate-700">
        Every staff action, newest first. Nobody can change it from here.
      </p>
      {loaderData.entries.length === 0 ? (
        <p className="mt-4">Nothing yet.</p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-3">
                  When (UTC)
                </th>
                <th scope="col" className="py-2 pr-3">
                  Who
                </th>
                <th scope="col" className="py-2 pr-3">
                  Action
                </th>
                <th scope="col" className="py-2 pr-3">
                  On
                </th>
                <th scope="col" className="py-2 pr-3">
                  Before
                </th>
                <th scope="col" className="py-2">
                  After
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.entries.map((e) => (
                <tr key={e.id} className="border-b border-slate-200 align-top">
                  <td className="py-2 pr-3 whitespace-nowrap">
                    {e.at.replace("T", " ").slice(0, 16)}
                  </td>
                  <td className="py-2 pr-3">{e.who}</td>
                  <td className="py-2 pr-3">{e.action}</td>
                  <td className="py-2 pr-3 break-all">{e.subject ?? ""}</td>
                  <td className="py-2 pr-3 break-all">{e.before ?? ""}</td>
                  <td className="py-2 break-all">{e.after ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
