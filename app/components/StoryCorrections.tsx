import type { RetractedCorrection, StoryCorrection } from "../../server/newsroom/corrections";
import { MAX_CORRECTION_LENGTH } from "../../shared/newsroom";
import { DANGER_BUTTON, Field, formatStaffTime, PRIMARY_BUTTON } from "./NewsroomNotice";
import { NewsroomForm } from "../routes/newsroom/layout";

/**
 * A story's corrections in the newsroom: those shown to readers, each with its form to edit or
 * retract it, then those retracted, with who retracted them and when.
 */
export function StoryCorrections({
  shown,
  retracted,
}: {
  shown: StoryCorrection[];
  retracted: RetractedCorrection[];
}) {
  return (
    <>
      {shown.length === 0 ? (
        <p>None shown.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {shown.map((c) => (
            <li key={c.id}>
              <p>
                <time dateTime={c.date} className="font-semibold">
                  {formatStaffTime(c.date)}:
                </time>{" "}
                <span className="break-words">{c.text}</span>
              </p>
              <details className="mt-1">
                <summary className="cursor-pointer text-sm font-semibold text-brand">
                  Edit or retract
                  <span className="sr-only"> the correction of {formatStaffTime(c.date)}</span>
                </summary>
                <NewsroomForm className="mt-2 flex flex-col gap-3">
                  <input type="hidden" name="correction-id" value={c.id} />
                  <Field
                    label="Its words (it keeps its date)"
                    name="correction"
                    defaultValue={c.text}
                    maxLength={MAX_CORRECTION_LENGTH}
                    rows={3}
                  />
                  <p className="flex flex-wrap gap-2">
                    <button
                      type="submit"
                      name="intent"
                      value="correction-edit"
                      className={PRIMARY_BUTTON}
                    >
                      Save the correction
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value="correction-retract"
                      className={DANGER_BUTTON}
                    >
                      Retract it
                    </button>
                  </p>
                  <p className="text-sm text-slate-700">
                    Retracting takes it off the story, /corrections and the corrections feed; it
                    stays listed here and in the audit log.
                  </p>
                </NewsroomForm>
              </details>
            </li>
          ))}
        </ul>
      )}
      {retracted.length > 0 ? (
        <>
          <h3 className="font-bold">Retracted</h3>
          <ul className="flex flex-col gap-2 text-sm text-slate-700">
            {retracted.map((c) => (
              <li key={c.retractedAt + c.text}>
                <span className="break-words">{c.text}</span> (published {formatStaffTime(c.date)};
                retracted by <span className="break-all">{c.retractedBy}</span>,{" "}
                {formatStaffTime(c.retractedAt)})
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
