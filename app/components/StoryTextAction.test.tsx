import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MAX_CORRECTION_LENGTH, MAX_REASON_LENGTH, PIN_DURATIONS } from "../../shared/newsroom";
import { BUTTON, DANGER_BUTTON, FIELD, PRIMARY_BUTTON } from "./NewsroomNotice";
import { PinHoursSelect } from "./PinHoursSelect";
import { StoryTextAction } from "./StoryTextAction";

const html = (element: React.ReactElement) => renderToStaticMarkup(element);

const hours = (
  <select name="hours" defaultValue="24" className={FIELD}>
    {PIN_DURATIONS.map((d) => (
      <option key={d.hours} value={d.hours}>
        {d.label}
      </option>
    ))}
  </select>
);

/**
 * The stories list's rows and a story's page each wrote these fields by hand, each their own way:
 * the shared ones must draw both as they were.
 */
describe("the story actions of a row of the stories list", () => {
  it("take a story down and correct it, asking nothing of the words", () => {
    expect(html(<StoryTextAction intent="take-down" compact />)).toBe(
      html(
        <>
          <label className="flex flex-col gap-1 text-sm font-semibold">
            Why it comes down (for the audit log)
            <textarea name="reason" maxLength={MAX_REASON_LENGTH} rows={2} className={FIELD} />
          </label>
          <p>
            <button type="submit" name="intent" value="take-down" className={DANGER_BUTTON}>
              Take the story down
            </button>
          </p>
        </>,
      ),
    );
    expect(html(<StoryTextAction intent="correct" compact />)).toBe(
      html(
        <>
          <label className="flex flex-col gap-1 text-sm font-semibold">
            A correction, dated today
            <textarea
              name="correction"
              maxLength={MAX_CORRECTION_LENGTH}
              rows={2}
              className={FIELD}
            />
          </label>
          <p>
            <button type="submit" name="intent" value="correct" className={BUTTON}>
              Publish the correction
            </button>
          </p>
        </>,
      ),
    );
  });

  it("pin a story", () => {
    expect(html(<PinHoursSelect compact />)).toBe(
      html(
        <>
          <label className="flex flex-col gap-1 text-sm font-semibold">
            Pin it for
            {hours}
          </label>
          <button type="submit" name="intent" value="pin" className={BUTTON}>
            Pin the story
          </button>
        </>,
      ),
    );
  });
});

describe("the story actions of a story's page", () => {
  it("take it down and correct it, with words long enough", () => {
    expect(html(<StoryTextAction intent="take-down" />)).toBe(
      html(
        <>
          <label className="flex flex-col gap-1 font-semibold">
            Why it comes down (for the audit log; readers are not told)
            <textarea
              name="reason"
              required
              minLength={3}
              maxLength={MAX_REASON_LENGTH}
              rows={2}
              className={FIELD}
            />
          </label>
          <p>
            <button type="submit" name="intent" value="take-down" className={DANGER_BUTTON}>
              Take the story down
            </button>
          </p>
        </>,
      ),
    );
    expect(html(<StoryTextAction intent="correct" />)).toBe(
      html(
        <>
          <label className="flex flex-col gap-1 font-semibold">
            A correction, dated today, shown above the story and at /corrections
            <textarea
              name="correction"
              required
              minLength={10}
              maxLength={MAX_CORRECTION_LENGTH}
              rows={3}
              className={FIELD}
            />
          </label>
          <p>
            <button type="submit" name="intent" value="correct" className={PRIMARY_BUTTON}>
              Publish the correction
            </button>
          </p>
        </>,
      ),
    );
  });

  it("pin it, or change a pin's expiry", () => {
    for (const pinned of [false, true]) {
      expect(html(<PinHoursSelect pinned={pinned} />)).toBe(
        html(
          <>
            <label className="flex flex-col gap-1 font-semibold">
              {pinned ? "Keep it pinned for" : "Pin it for"}
              {hours}
            </label>
            <button type="submit" name="intent" value="pin" className={PRIMARY_BUTTON}>
              {pinned ? "Change the expiry" : "Pin the story"}
            </button>
          </>,
        ),
      );
    }
  });
});
