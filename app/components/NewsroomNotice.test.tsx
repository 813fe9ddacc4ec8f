import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field, FIELD, NewsroomNotice } from "./NewsroomNotice";

const html = (element: React.ReactElement) => renderToStaticMarkup(element);

describe("NewsroomNotice", () => {
  it("tells why not over what was done, and nothing without either", () => {
    expect(html(<NewsroomNotice done="Saved." error="Too short." />)).toBe(
      '<p role="alert" class="rounded bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">Too short.</p>',
    );
    expect(html(<NewsroomNotice done="Saved." error={null} />)).toBe(
      '<p role="status" class="rounded bg-green-50 p-3 text-sm text-green-900 ring-1 ring-green-200">Saved.</p>',
    );
    expect(html(<NewsroomNotice done={null} />)).toBe("");
  });
});

/** The pages' forms drew their fields by hand before Field: it must draw them the same. */
describe("Field", () => {
  const LABEL = "flex flex-col gap-1 font-semibold";

  it("draws a text box with its props in their order, FIELD's looks unless given others", () => {
    expect(
      html(<Field label="Credit" type="text" name="credit" defaultValue="A" maxLength={9} />),
    ).toBe(
      html(
        <label className={LABEL}>
          Credit
          <input type="text" name="credit" defaultValue="A" maxLength={9} className={FIELD} />
        </label>,
      ),
    );
    expect(
      html(<Field label="File" type="file" name="picture" required className="text-sm" />),
    ).toBe(
      html(
        <label className={LABEL}>
          File
          <input type="file" name="picture" required className="text-sm" />
        </label>,
      ),
    );
  });

  it("draws a text area when given rows, and a hint after the control", () => {
    expect(
      html(
        <Field label="Why" labelClassName="flex text-sm" name="reason" required rows={2}>
          <span>Readers are not told.</span>
        </Field>,
      ),
    ).toBe(
      html(
        <label className="flex text-sm">
          Why
          <textarea name="reason" required rows={2} className={FIELD} />
          <span>Readers are not told.</span>
        </label>,
      ),
    );
  });

  it("draws a select of its options, the default one chosen", () => {
    expect(
      html(
        <Field
          label="Feed"
          name="feed"
          defaultValue="2"
          options={[
            ["", "Every feed"],
            [2, "Sample feed"],
          ]}
        />,
      ),
    ).toBe(
      html(
        <label className={LABEL}>
          Feed
          <select name="feed" defaultValue="2" className={FIELD}>
            <option value="">Every feed</option>
            <option value={2}>Sample feed</option>
          </select>
        </label>,
      ),
    );
  });
});
