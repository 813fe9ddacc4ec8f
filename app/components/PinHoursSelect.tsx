import { PIN_DURATIONS } from "../../shared/newsroom";
import { FIELD } from "./NewsroomNotice";

/** How long a story stays pinned: the newsroom's choices, a day by default. */
export function PinHoursSelect() {
  return (
    <select name="hours" defaultValue="24" className={FIELD}>
      {PIN_DURATIONS.map((d) => (
        <option key={d.hours} value={d.hours}>
          {d.label}
        </option>
      ))}
    </select>
  );
}
