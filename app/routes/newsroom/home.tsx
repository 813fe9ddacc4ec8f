import { Link } from "react-router";
import { requireStaff } from "../../../server/staff/guard";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [
  { title: "Newsroom" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireStaff(request, context);
  return { role: session.member.role };
}

export default function NewsroomHome({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <h1 className="text-2xl font-bold">Newsroom</h1>
      <p className="mt-2 text-slate-700">
        What the publication's staff can do on the site. Every action is written to the audit log.
      </p>
      {loaderData.role === "admin" ? (
        <p className="mt-4">
          <Link to="/newsroom/audit" className="font-semibold text-brand underline">
            Read the audit log
          </Link>
        </p>
      ) : null}
    </div>
  );
}
