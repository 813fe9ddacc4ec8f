/** A newsroom page's answer to an action: what was done (status) or why not (alert). */
export function NewsroomNotice({ done, error }: { done?: string | null; error?: string | null }) {
  if (!error && !done) return null;
  return (
    <p
      role={error ? "alert" : "status"}
      className={
        error
          ? "rounded bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200"
          : "rounded bg-green-50 p-3 text-sm text-green-900 ring-1 ring-green-200"
      }
    >
      {error || done}
    </p>
  );
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

/**
 * A newsroom form's field: its words, its control and `children` (a hint) in one label. The control
 * is a select of `options` ([value, words] each), a text area when given `rows`, else a text box,
 * with the other props (FIELD's looks unless given a className).
 */
export function Field({
  label,
  labelClassName = "flex flex-col gap-1 font-semibold",
  options,
  children,
  ...control
}: React.ComponentProps<"input"> &
  React.ComponentProps<"textarea"> &
  React.ComponentProps<"select"> & {
    label: React.ReactNode;
    labelClassName?: string;
    options?: readonly (readonly [value: string | number, words: string])[];
  }) {
  const props = { ...control, className: control.className ?? FIELD };
  return (
    <label className={labelClassName}>
      {label}
      {options ? (
        <select {...props}>
          {options.map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
      ) : control.rows ? (
        <textarea {...props} />
      ) : (
        <input {...props} />
      )}
      {children}
    </label>
  );
}
