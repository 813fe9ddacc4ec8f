import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { FocusPicker } from "./FocusPicker";
import { FIELD } from "./NewsroomNotice";
import { PostField as Field } from "./PostField";
import type { LibraryPicture, PostFormValues } from "./PostEditorForm";

export { FOCUS_PICKER_WIDTH } from "./FocusPicker";

/**
 * The editor's picture: one from the library or a file from the device (uploaded with the form),
 * its words, and the focal point, set by a click on the picture (an image button, so it works
 * without JavaScript: the browser sends where it was clicked).
 */
export function PictureBox(props: {
  chosen: LibraryPicture | null;
  library: LibraryPicture[];
  values: PostFormValues;
  fieldErrors: Partial<Record<string, string>>;
  /** The picture's words: the form's own fields. */
  children: React.ReactNode;
}) {
  const { chosen, library, values, fieldErrors, children } = props;
  const file = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLElement>(null);
  const [dragging, setDragging] = useState(false);
  // A picture dropped anywhere on the box goes to the file input (which takes drops itself too).
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const over = (event: DragEvent) => {
      event.preventDefault();
      setDragging(true);
    };
    const leave = () => setDragging(false);
    const drop = (event: DragEvent) => {
      event.preventDefault();
      setDragging(false);
      const files = event.dataTransfer?.files;
      if (file.current && files && files.length > 0) file.current.files = files;
    };
    element.addEventListener("dragover", over);
    element.addEventListener("dragleave", leave);
    element.addEventListener("drop", drop);
    return () => {
      element.removeEventListener("dragover", over);
      element.removeEventListener("dragleave", leave);
      element.removeEventListener("drop", drop);
    };
  }, []);
  return (
    <section
      id="picture"
      aria-labelledby="picture-heading"
      ref={box}
      className={`flex flex-col gap-3 rounded p-4 ring-1 ${dragging ? "ring-brand" : "ring-slate-200"}`}
    >
      <h2 id="picture-heading" className="text-lg font-bold">
        Picture
      </h2>
      {chosen ? (
        <div className="flex flex-col gap-1">
          <p className="text-sm" id="focus-hint">
            Select the point that must stay in every crop (cards, social previews).
          </p>
          <FocusPicker
            picture={chosen.picture}
            name={chosen.alt || chosen.filename || "the picture"}
            hintId="focus-hint"
          />
        </div>
      ) : null}
      <Field label="From the library" error={fieldErrors.mediaId} name="mediaId">
        <select
          // Drawn anew when a save changes the picture (an upload chooses it).
          key={values.mediaId}
          name="mediaId"
          defaultValue={values.mediaId}
          className={`${FIELD} w-full max-w-full`}
        >
          <option value="">No picture</option>
          {library.map((m) => (
            <option key={m.id} value={m.id}>
              {m.alt || m.filename || `Picture ${m.id}`}
              {m.credit ? ` (${m.credit})` : ""}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Or upload one from this device" error={fieldErrors.picture} name="picture">
        <input
          ref={file}
          type="file"
          name="picture"
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          className="text-sm"
        />
      </Field>
      <p className="text-xs text-slate-600">
        JPEG, PNG, WebP, AVIF or GIF; a phone offers its camera roll. Drop a file here too. Its
        location and camera details are removed. It is uploaded when you save or publish.
      </p>
      {children}
      <p className="text-sm">
        <Link to="/newsroom/media" className="text-brand underline">
          Media library
        </Link>
      </p>
    </section>
  );
}
