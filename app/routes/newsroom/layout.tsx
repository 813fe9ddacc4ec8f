import {
  Form,
  isRouteErrorResponse,
  type FormProps,
  Link,
  NavLink,
  Outlet,
  useRouteLoaderData,
} from "react-router";
import { requireStaff } from "../../../server/staff/guard";
import { NewsroomHeader } from "../../components/NewsroomHeader";
import { newsroomHeaders } from "../../lib/headers";
import type { Route } from "./+types/layout";

export const handle = { newsroom: true };
export const headers = newsroomHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireStaff(request, context);
  return { member: { email: session.member.email, role: session.member.role }, csrf: session.csrf };
}

/** The signed-in member and the form token, for the newsroom's pages and forms. */
export function useNewsroom() {
  const data = useRouteLoaderData<typeof loader>("newsroom");
  if (!data) throw new Error("useNewsroom is for pages inside the newsroom");
  return data;
}

/** The session's form token, which every newsroom form carries. */
export function CsrfField() {
  return <input type="hidden" name="_csrf" value={useNewsroom().csrf} />;
}

/** A newsroom form that posts, the session's form token its first field and `intent` the next. */
export function NewsroomForm({
  intent,
  children,
  ...props
}: Omit<FormProps, "method"> & React.RefAttributes<HTMLFormElement> & { intent?: string }) {
  return (
    <Form method="post" {...props}>
      <CsrfField />
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      {children}
    </Form>
  );
}

/**
 * A part of a newsroom page under its heading, which labels it: `boxed` in a ring, or laid out by
 * its className; `small`, a smaller heading.
 */
export function Panel(props: {
  id: string;
  title: React.ReactNode;
  boxed?: boolean;
  className?: string;
  small?: boolean;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={props.id}
      className={props.boxed ? "rounded p-4 ring-1 ring-slate-200" : props.className}
    >
      <h2 id={props.id} className={props.small ? "text-lg font-bold" : "text-xl font-bold"}>
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}

/**
 * The overview is loaded as a page, never fetched as data: its data address, /newsroom.data, is
 * outside the session cookie's path (/newsroom), so a client-side navigation there would arrive
 * signed out.
 */
const SECTIONS: { to: string; label: string; admin?: boolean; reloadDocument?: boolean }[] = [
  { to: "/newsroom", label: "Overview", reloadDocument: true },
  { to: "/newsroom/posts", label: "Writing" },
  { to: "/newsroom/media", label: "Media" },
  { to: "/newsroom/stories", label: "Stories" },
  { to: "/newsroom/rules", label: "Block rules" },
  { to: "/newsroom/banner", label: "Banner" },
  { to: "/newsroom/inbox", label: "Inbox" },
  { to: "/newsroom/polls", label: "Poll results" },
  { to: "/newsroom/feeds", label: "Feeds", admin: true },
  { to: "/newsroom/newsletter", label: "Newsletter", admin: true },
  { to: "/newsroom/staff", label: "Staff", admin: true },
  { to: "/newsroom/audit", label: "Audit log", admin: true },
];

export default function NewsroomLayout({ loaderData }: Route.ComponentProps) {
  const { member } = loaderData;
  return (
    <>
      <NewsroomHeader />
      <div className="flex flex-col gap-6">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 pb-3">
          <nav aria-label="Newsroom">
            <ul className="flex flex-wrap gap-1">
              {SECTIONS.filter((s) => !s.admin || member.role === "admin").map((section) => (
                <li key={section.to}>
                  <NavLink
                    to={section.to}
                    reloadDocument={section.reloadDocument}
                    end
                    className="block rounded px-3 py-2 font-semibold hover:bg-slate-100 aria-[current=page]:bg-brand aria-[current=page]:text-white"
                  >
                    {section.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <Form
            method="post"
            action="/newsroom/sign-out"
            className="flex items-center gap-3 text-sm"
          >
            <span>
              {member.email} <span className="text-slate-600">({member.role})</span>
            </span>
            <CsrfField />
            <button
              type="submit"
              className="rounded border border-slate-400 px-3 py-1 hover:bg-slate-100"
            >
              Sign out
            </button>
          </Form>
        </div>
        <Outlet />
      </div>
    </>
  );
}

/**
 * An error in a newsroom page (an editor on an admin's page, a story that is gone) keeps the
 * newsroom's header and a way back, instead of the readers' error page.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const refused = isRouteErrorResponse(error) && error.status === 403;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string"
      ? error.data
      : "Something went wrong on this page.";
  return (
    <>
      <NewsroomHeader />
      <div className="flex flex-col items-start gap-4">
        <h1 className="text-2xl font-bold">
          {refused ? "Not for your role" : "This did not work"}
        </h1>
        <p className="text-slate-700">{message}</p>
        <Link
          to="/newsroom"
          reloadDocument
          className="rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
        >
          Back to the newsroom
        </Link>
      </div>
    </>
  );
}
