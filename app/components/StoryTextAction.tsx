import { MAX_CORRECTION_LENGTH, MAX_REASON_LENGTH } from "../../shared/newsroom";
import { BUTTON, DANGER_BUTTON, Field, PRIMARY_BUTTON } from "./NewsroomNotice";

/**
 * The take-down's and the correction's fields, which a row of the stories list (`compact`: smaller
 * words, and only the server checks what is typed) and a story's own page both offer, inside the
 * form of the place that draws them.
 */

/** Each action's field: its words on the page and in a row, what the page asks of it, its button. */
const TEXT_ACTIONS = {
  "take-down": {
    name: "reason",
    label: "Why it comes down (for the audit log; readers are not told)",
    compactLabel: "Why it comes down (for the audit log)",
    minLength: 3,
    maxLength: MAX_REASON_LENGTH,
    rows: 2,
    button: "Take the story down",
  },
  correct: {
    name: "correction",
    label: "A correction, dated today, shown above the story and at /corrections",
    compactLabel: "A correction, dated today",
    minLength: 10,
    maxLength: MAX_CORRECTION_LENGTH,
    rows: 3,
    button: "Publish the correction",
  },
} as const;
type TextIntent = keyof typeof TEXT_ACTIONS;

/** The words over a row's fields, smaller than a page's. */
export const COMPACT_LABEL = "flex flex-col gap-1 text-sm font-semibold";

/** A take-down's reason or a correction's words, and the button that sends them. */
export function StoryTextAction({ intent, compact }: { intent: TextIntent; compact?: boolean }) {
  const { name, label, compactLabel, minLength, maxLength, rows, button } = TEXT_ACTIONS[intent];
  return (
    <>
      <Field
        label={compact ? compactLabel : label}
        labelClassName={compact ? COMPACT_LABEL : undefined}
        name={name}
        required={!compact}
        minLength={compact ? undefined : minLength}
        maxLength={maxLength}
        rows={compact ? 2 : rows}
      />
      <p>
        <button
          type="submit"
          name="intent"
          value={intent}
          className={intent === "take-down" ? DANGER_BUTTON : compact ? BUTTON : PRIMARY_BUTTON}
        >
          {button}
        </button>
      </p>
    </>
  );
}
