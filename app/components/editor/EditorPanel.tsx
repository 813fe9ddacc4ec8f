import type { Editor } from "@tiptap/react";
import { useCallback, useState, type KeyboardEvent } from "react";
import type { BodyPicture } from "./BodyField";
import { linkAnswer, videoAnswer } from "./body-editing";

/**
 * The small box under the toolbar that asks for a link's address, a video's address or a picture
 * of the media library. It is not a <form>: it sits inside the page's form, so Enter is caught here
 * instead of posting the page.
 */

export type PanelKind = "link" | "video" | "picture";

const FIELD = "rounded border border-slate-400 bg-white px-3 py-2 font-normal";
const BUTTON =
  "min-h-10 rounded border border-slate-400 bg-white px-3 text-sm font-semibold hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand";
const PRIMARY =
  "min-h-10 rounded bg-brand px-3 text-sm font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand";

const TITLES: Record<PanelKind, string> = {
  link: "Link",
  video: "Video",
  picture: "Picture",
};

/**
 * Puts the cursor at the start of the paragraph after a block just inserted (a new one when none
 * follows), so that typing goes on below it: not into the video's link, not over the picture
 * (a selected picture is replaced by whatever is typed or inserted next).
 */
function continueBelow(editor: Editor, blockEnd: number) {
  if (editor.state.doc.resolve(blockEnd).nodeAfter?.isTextblock) {
    editor.commands.setTextSelection(blockEnd + 1);
  } else {
    editor
      .chain()
      .insertContentAt(blockEnd, { type: "paragraph" })
      .setTextSelection(blockEnd + 1)
      .run();
  }
}

/** An address as text that links to itself. */
const linkedAddress = (href: string) => ({
  type: "text",
  text: href,
  marks: [{ type: "link", attrs: { href } }],
});

const pictureName = (picture: BodyPicture) => picture.alt.trim() || `Picture ${picture.id}`;

export function EditorPanel({
  id,
  kind,
  editor,
  pictures,
  onClose,
}: {
  id: string;
  kind: PanelKind;
  editor: Editor;
  pictures: BodyPicture[];
  /** Closes the box; `returnFocus` when it was cancelled, so the toolbar gets the focus back. */
  onClose: (returnFocus: boolean) => void;
}) {
  const [value, setValue] = useState(() => {
    if (kind === "link") {
      const href: unknown = editor.getAttributes("link").href;
      return typeof href === "string" ? href : "";
    }
    return kind === "picture" ? String(pictures[0]?.id ?? "") : "";
  });
  const [problem, setProblem] = useState<string | null>(null);
  // The box's first control takes the focus when it opens.
  const focusOnOpen = useCallback((control: HTMLElement | null) => control?.focus(), []);

  const apply = () => {
    if (kind === "link") {
      const answer = linkAnswer(value);
      if (answer.kind === "invalid") return setProblem(answer.message);
      const chain = editor.chain().focus().extendMarkRange("link");
      if (answer.kind === "remove") chain.unsetLink().run();
      else if (editor.state.selection.empty && !editor.isActive("link")) {
        // Nothing selected: the address itself becomes the link's words.
        chain
          .insertContent(linkedAddress(answer.href))
          // What is typed next is not part of the link.
          .unsetMark("link")
          .run();
      } else chain.setLink({ href: answer.href }).run();
    } else if (kind === "video") {
      const answer = videoAnswer(value);
      if (answer.kind === "invalid") return setProblem(answer.message);
      editor
        .chain()
        .focus()
        .insertContent({ type: "paragraph", content: [linkedAddress(answer.href)] })
        .run();
      const { $to } = editor.state.selection;
      if ($to.parent.textContent === answer.href) continueBelow(editor, $to.after());
    } else {
      const picture = pictures.find((p) => String(p.id) === value);
      if (!picture) return setProblem("Choose a picture.");
      editor.chain().focus().setImage({ src: picture.src, alt: picture.alt }).run();
      // Selected after its insertion (unless the cursor already went on into the next paragraph).
      if (!editor.state.selection.empty) continueBelow(editor, editor.state.selection.to);
    }
    onClose(false);
  };

  const keys = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose(true);
    } else if (event.key === "Enter" && !(event.target instanceof HTMLButtonElement)) {
      // Enter in the box's field applies it rather than submitting the page's form.
      event.preventDefault();
      apply();
    }
  };

  const fieldId = `${id}-field`;
  const problemId = `${id}-problem`;
  const describedBy = problem ? problemId : undefined;
  const noPictures = kind === "picture" && pictures.length === 0;
  return (
    <div
      id={id}
      role="group"
      aria-label={TITLES[kind]}
      className="flex flex-col gap-2 rounded bg-slate-100 p-3 ring-1 ring-slate-300"
    >
      {noPictures ? null : (
        <label htmlFor={fieldId} className="text-sm font-semibold">
          {kind === "link"
            ? "Link address (empty removes the link)"
            : kind === "video"
              ? "YouTube address"
              : "Picture from the media library"}
        </label>
      )}
      {noPictures ? (
        <p className="text-sm text-slate-700">
          The media library has no pictures yet: upload one first.
        </p>
      ) : kind === "picture" ? (
        <select
          ref={focusOnOpen}
          onKeyDown={keys}
          id={fieldId}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          className={FIELD}
        >
          {pictures.map((picture) => (
            <option key={picture.id} value={picture.id}>
              {pictureName(picture)}
            </option>
          ))}
        </select>
      ) : (
        <input
          ref={focusOnOpen}
          onKeyDown={keys}
          id={fieldId}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={kind === "link" ? "https://… or /path" : "https://www.youtube.com/watch?v=…"}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          className={FIELD}
        />
      )}
      {problem ? (
        <p id={problemId} role="alert" className="text-sm text-red-800">
          {problem}
        </p>
      ) : null}
      <p className="flex flex-wrap gap-2">
        {noPictures ? null : (
          <button type="button" onClick={apply} onKeyDown={keys} className={PRIMARY}>
            {kind === "link" ? "Apply the link" : `Insert the ${kind}`}
          </button>
        )}
        <button
          ref={noPictures ? focusOnOpen : undefined}
          type="button"
          onClick={() => onClose(true)}
          onKeyDown={keys}
          className={BUTTON}
        >
          Cancel
        </button>
      </p>
    </div>
  );
}
