import { Link } from "react-router";
import { requireStaff } from "../../../server/staff/guard";
import type { Route } from "./+types/home";
import { newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta();

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
      <ul className="mt-4 list-disc space-y-1 pl-6">
        <li>
          <Link to="/newsroom/posts" className="font-semibold text-brand underline">
            Writing
          </Link>
          : write, illustrate, preview, schedule and publish the publication&apos;s own stories and
          blog posts.
        </li>
        <li>
          <Link to="/newsroom/media" className="font-semibold text-brand underline">
            Media library
          </Link>
          : upload pictures, set their focal point, alt text and credit.
        </li>
        <li>
          <Link to="/newsroom/stories" className="font-semibold text-brand underline">
            Stories
          </Link>
          : take down and restore, correct, pin, change a headline or picture.
        </li>
        <li>
          <Link to="/newsroom/rules" className="font-semibold text-brand underline">
            Block rules
          </Link>
          : keep feed items out by words in their headline, author or link.
        </li>
        <li>
          <Link to="/newsroom/banner" className="font-semibold text-brand underline">
            Breaking banner
          </Link>
          : put a banner on the home page until a time you choose, or clear it.
        </li>
        <li>
          <Link to="/newsroom/inbox" className="font-semibold text-brand underline">
            Inbox
          </Link>
          : read readers' contact messages, mark them handled, delete them.
        </li>
        <li>
          <Link to="/newsroom/polls" className="font-semibold text-brand underline">
            Poll results
          </Link>
          : the Community poll's votes per option, with totals.
        </li>
      </ul>
      {loaderData.role === "admin" ? (
        <ul className="mt-4 list-disc space-y-1 pl-6">
          <li>
            <Link to="/newsroom/feeds" className="font-semibold text-brand underline">
              Feeds
            </Link>
            : each feed's health; start an ingest pass.
          </li>
          <li>
            <Link to="/newsroom/newsletter" className="font-semibold text-brand underline">
              Newsletter
            </Link>
            : subscribers, their CSV file, the next digest; send today's digest.
          </li>
          <li>
            <Link to="/newsroom/audit" className="font-semibold text-brand underline">
              Audit log
            </Link>
            : every staff action.
          </li>
          <li>
            <Link to="/newsroom/staff" className="font-semibold text-brand underline">
              Staff accounts
            </Link>
            : add, change a role, reset a password, remove.
          </li>
        </ul>
      ) : null}
    </div>
  );
}
