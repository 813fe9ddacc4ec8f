import { useEffect, useRef, useState, type JSX } from "react";
import type { RichBodyEditor } from "./RichBodyEditor";

/** A picture of the media library that a writer may put in the body. */
export interface BodyPicture {
  id: number;
  /** A path on our own origin, e.g. /images/<hash>/960.jpg */
  src: string;
  alt: string;
}

export interface BodyFieldProps {
  /** The field's id: the label points at it. */
  id: string;
  label: string;
  /** The body as Markdown, for the plain text area. */
  markdown: string;
  /** The same body as sanitised HTML, which the rich editor starts from. */
  html: string;
  pictures: BodyPicture[];
  error?: string;
  /** Called on every edit, after the form's fields hold it (for autosave). */
  onChange?: () => void;
}

/**
 * A story's or blog post's body. The server renders a Markdown text area that works without
 * JavaScript (the form posts `body` and `bodyFormat=markdown`); once the page has hydrated, the
 * rich editor's own chunk is fetched and takes the text area's place (it posts `body` as HTML and
 * `bodyFormat=html`). The server sanitises either (server/newsroom/post-body.ts).
 */
export function BodyField(props: BodyFieldProps): JSX.Element {
  const { id, label, markdown, html, pictures, error, onChange } = props;
  const [Editor, setEditor] = useState<typeof RichBodyEditor | null>(null);
  const [autofocus, setAutofocus] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const typed = useRef(false);

  useEffect(() => {
    let mounted = true;
    import("./RichBodyEditor").then(
      (module) => {
        // Words typed into the text area while the editor loaded stay there, posted as Markdown.
        if (!mounted || typed.current) return;
        setAutofocus(document.activeElement === area.current);
        setEditor(() => module.RichBodyEditor);
      },
      () => {
        // No editor (offline, a deploy replaced the chunk): the text area goes on working.
      },
    );
    return () => {
      mounted = false;
    };
  }, []);

  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [Editor ? null : hintId, error ? errorId : null].filter(Boolean).join(" ") || undefined;

  return (
    <div className="flex flex-col gap-2">
      <label id={labelId} htmlFor={id} className="font-semibold">
        {label}
      </label>
      {Editor ? (
        <Editor
          id={id}
          labelId={labelId}
          label={label}
          describedBy={describedBy}
          invalid={Boolean(error)}
          html={html}
          pictures={pictures}
          autofocus={autofocus}
          onChange={onChange}
        />
      ) : (
        <>
          <MarkdownHint id={hintId} />
          <input type="hidden" name="bodyFormat" value="markdown" />
          <textarea
            ref={area}
            id={id}
            name="body"
            rows={18}
            defaultValue={markdown}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            onChange={() => {
              typed.current = true;
              onChange?.();
            }}
            className="min-h-64 rounded border border-slate-400 bg-white px-3 py-2 font-mono text-sm aria-invalid:border-red-700"
          />
          {pictures.length > 0 ? <PictureCodes pictures={pictures} /> : null}
        </>
      )}
      {error ? (
        <p id={errorId} className="text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function MarkdownHint({ id }: { id: string }) {
  const code = "rounded bg-slate-100 px-1 font-mono text-xs";
  const items: [string, string][] = [
    ["## Heading", "a heading"],
    ["**bold**", "bold"],
    ["_italic_", "italic"],
    ["[words](https://…)", "a link"],
    ["- item", "a list"],
    ["> words", "a quote"],
    ["![description](/images/…)", "a picture"],
  ];
  return (
    <p id={id} className="text-sm text-slate-700">
      Markdown works:{" "}
      {items.map(([example, meaning], index) => (
        <span key={example}>
          <code className={code}>{example}</code> {meaning}
          {index < items.length - 1 ? ", " : "; "}
        </span>
      ))}
      a video link alone on a line becomes a player.
    </p>
  );
}

/** For a writer without JavaScript: each picture of the library as Markdown to copy. */
function PictureCodes({ pictures }: { pictures: BodyPicture[] }) {
  return (
    <details className="text-sm text-slate-700">
      <summary className="cursor-pointer font-semibold">Pictures you can use</summary>
      <ul className="mt-2 flex flex-col gap-1">
        {pictures.map((picture) => (
          <li key={picture.id} className="break-all">
            <code className="rounded bg-slate-100 px-1 font-mono text-xs">
              ![{picture.alt.replace(/[[\]]/g, "")}]({picture.src})
            </code>
          </li>
        ))}
      </ul>
    </details>
  );
}
