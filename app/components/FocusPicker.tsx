import { fallbackVariant, type StoredPicture } from "../../shared/picture";

/** The width the focal-point picture is drawn at: a click's coordinates are read against it. */
export const FOCUS_PICKER_WIDTH = 320;

/**
 * A picture whose click sets its focal point: an image button, so it works without JavaScript (the
 * browser sends where it was clicked, `focus.x` and `focus.y`, with its form), drawn
 * FOCUS_PICKER_WIDTH pixels wide so the server can read them, the current point marked on it.
 */
export function FocusPicker(props: { picture: StoredPicture; name: string; hintId: string }) {
  const { picture } = props;
  const height = Math.round((FOCUS_PICKER_WIDTH * picture.height) / picture.width);
  return (
    <div className="relative self-start" style={{ width: FOCUS_PICKER_WIDTH }}>
      <input
        type="image"
        name="focus"
        src={fallbackVariant(picture, 640)}
        alt={`Set the focal point of ${props.name}`}
        aria-describedby={props.hintId}
        width={FOCUS_PICKER_WIDTH}
        height={height}
        className="block cursor-crosshair rounded"
        style={{ backgroundColor: picture.color }}
      />
      <span
        aria-hidden="true"
        className="pointer-events-none absolute size-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-red-600 shadow"
        style={{ left: `${picture.focus?.x ?? 50}%`, top: `${picture.focus?.y ?? 50}%` }}
      />
    </div>
  );
}
