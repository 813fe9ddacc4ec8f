import { PIN_DURATIONS } from "../../shared/newsroom";
import { BUTTON, Field, PRIMARY_BUTTON } from "./NewsroomNotice";
import { COMPACT_LABEL } from "./StoryTextAction";

/**
 * How long a story stays pinned (the newsroom's choices, a day by default) and the button that
 * pins it, as a row of the stories list (`compact`) and a story's page (`pinned` or not) draw them.
 */
export function PinHoursSelect({ compact, pinned }: { compact?: boolean; pinned?: boolean }) {
  return (
    <>
      <Field
        label={pinned ? "Keep it pinned for" : "Pin it for"}
        labelClassName={compact ? COMPACT_LABEL : undefined}
        name="hours"
        defaultValue="24"
        options={PIN_DURATIONS.map((d) => [d.hours, d.label])}
      />
      <button type="submit" name="intent" value="pin" className={compact ? BUTTON : PRIMARY_BUTTON}>
        {pinned ? "Change the expiry" : "Pin the story"}
      </button>
    </>
  );
}
