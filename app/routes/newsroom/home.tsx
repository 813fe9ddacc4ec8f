import { Link } from "react-router";
import { requireStaff } from "../../../server/staff/guard";
import type { Route } from "./+types/home";
import { newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta();

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireStaff(request, context);
  return { role: session.member.role };
}

type Part = [to: string, label: string, what: string];

/** The newsroom's parts, each with what it is for; the admins' in a list of their own. */
const STAFF_PARTS: Part[] = [
  [
    "/newsroom/posts",
    "Writing",
    "write, illustrate, preview, schedule and publish the publication's own stories and blog posts.",
  ],
  [
    "/newsroom/media",
    "Media library",
    "upload pictures, set their focal point, alt text and credit.",
  ],
  [
    "/newsroom/stories",
    "Stories",
    "take down and restore, correct, pin, change a headline or picture.",
  ],
  [
    "/newsroom/rules",
    "Block rules",
    "keep feed items out by words in their headline, author or link.",
  ],
  [
    "/newsroom/banner",
    "Breaking banner",
    "put a banner on the home page until a time you choose, or clear it.",
  ],
  ["/newsroom/inbox", "Inbox", "read readers' contact messages, mark them handled, delete them."],
  ["/newsroom/polls", "Poll results", "the Community poll's votes per option, with totals."],
];
const ADMIN_PARTS: Part[] = [
  ["/newsroom/feeds", "Feeds", "each feed's health; start an ingest pass."],
  [
    "/newsroom/newsletter",
    "Newsletter",
    "subscribers, their CSV file, the next digest; send today's digest.",
  ],
  ["/newsroom/audit", "Audit log", "every staff action."],
  ["/newsroom/staff", "Staff accounts", "add, change a role, reset a password, remove."],
];

function PartList({ parts }: { parts: Part[] }) {
  return (
    <ul className="mt-4 list-disc space-y-1 pl-6">
      {parts.map(([to, label, what]) => (
        <li key={to}>
          <Link to={to} className="font-semibold text-brand underline">
            {label}
          </Link>
          {`: ${what}`}
        </li>
      ))}
    </ul>
  );
}

export default function NewsroomHome({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <h1 className="text-2xl font-bold">Newsroom</h1>
      <p className="mt-2 text-slate-700">
        What the publication's staff can do on the site. Every action is written to the audit log.
      </p>
      <PartList parts={STAFF_PARTS} />
      {loaderData.role === "admin" ? <PartList parts={ADMIN_PARTS} /> : null}
    </div>
  );
}
