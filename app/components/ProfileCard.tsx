import type { TeamMember } from "../../server/content/load";

/** One member of the editorial team: initials in a circle, name, role and a short bio. */
export function ProfileCard({ member }: { member: TeamMember }) {
  return (
    <article className="flex h-full gap-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <span
        aria-hidden="true"
        className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-brand text-lg font-bold text-white"
      >
        {member.initials}
      </span>
      <div className="min-w-0">
        <h3 className="font-bold">{member.name}</h3>
        <p className="text-sm font-semibold text-brand">{member.role}</p>
        <p className="mt-2 text-sm text-slate-700">{member.bio}</p>
      </div>
    </article>
  );
}
