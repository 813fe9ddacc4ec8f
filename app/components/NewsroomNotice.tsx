/** A newsroom page's answer to an action: what was done (status) or why not (alert). */
export function NewsroomNotice({ done, error }: { done?: string | null; error?: string | null }) {
  if (error) {
    return (
      <p role="alert" className="rounded bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
        {error}
      </p>
    );
  }
  if (done) {
    return (
      <p
        role="status"
        className="rounded bg-green-50 p-3 text-sm text-green-900 ring-1 ring-green-200"
      >
        {done}
      </p>
    );
  }
  return null;
}

/** Classes shared by the newsroom's buttons. */
export const BUTTON =
  "rounded border border-slate-400 bg-white px-3 py-2 font-semibold hover:bg-slate-100";
export const PRIMARY_BUTTON =
  "rounded bg-brand px-3 py-2 font-semibold text-white hover:bg-brand-dark";
export const DANGER_BUTTON =
  "rounded bg-red-700 px-3 py-2 font-semibold text-white hover:bg-red-800";
export const FIELD = "rounded border border-slate-400 px-3 py-2 font-normal";

export { formatStaffTime } from "../../shared/staff-time";
