import Image from "@tiptap/extension-image";
import Link from "@tiptap/extension-link";
import { EditorContent, useEditor, type EditorOptions } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useEffect, useMemo, useRef } from "react";
import type { BodyPicture } from "./BodyField";
import { carriesOnlyFiles, isBodyLinkAddress } from "./body-editing";
import { EditorToolbar } from "./EditorToolbar";

/**
 * The rich body editor (Tiptap): its own chunk, which BodyField imports once the editor page has
 * hydrated, so no reader page ever downloads it (server/http/bundle-size.test.ts checks).
 */

/** Pictures of our own store only (`/images/<hash>/<file>`): no data: addresses, no other hosts. */
const OwnPicture = Image.extend({
  parseHTML() {
    return [{ tag: 'img[src^="/images/"]' }];
  },
});

// What the site's HTML policy keeps (server/ingest/sanitize.ts): no strike, underline or rule.
const EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [2, 3, 4, 5, 6] },
    link: false,
    strike: false,
    underline: false,
    horizontalRule: false,
  }),
  Link.configure({
    openOnClick: false,
    defaultProtocol: "https",
    isAllowedUri: (url) => isBodyLinkAddress(url),
  }),
  OwnPicture.configure({ allowBase64: false }),
];

const EDITABLE =
  "article-body min-h-64 space-y-4 rounded border border-slate-400 bg-white px-3 py-2 leading-relaxed focus:outline-2 focus:outline-offset-2 focus:outline-brand aria-invalid:border-red-700 [&_img.ProseMirror-selectednode]:outline-4 [&_img.ProseMirror-selectednode]:outline-brand";

export interface RichBodyEditorProps {
  /** The editable area's id, which the field's label names. */
  id: string;
  labelId: string;
  label: string;
  describedBy: string | undefined;
  invalid: boolean;
  html: string;
  pictures: BodyPicture[];
  /** Whether the editor takes the focus when it appears (the text area it replaces had it). */
  autofocus: boolean;
  onChange?: () => void;
}

export function RichBodyEditor(props: RichBodyEditorProps) {
  const { id, labelId, describedBy, invalid } = props;
  const body = useRef<HTMLInputElement>(null);
  const editorProps = useMemo<EditorOptions["editorProps"]>(
    () => ({
      attributes: {
        id,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        class: EDITABLE,
      },
      handleDrop: (_view, event) => carriesOnlyFiles(event.dataTransfer),
      handlePaste: (_view, event) => carriesOnlyFiles(event.clipboardData),
    }),
    [id, labelId, describedBy, invalid],
  );
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: props.html,
    // Never rendered on the server: BodyField imports this module in the browser only.
    immediatelyRender: true,
    autofocus: props.autofocus ? "end" : false,
    editorProps,
    onUpdate: ({ editor: updated }) => {
      // The hidden field is written before `onChange` runs, so an autosave reads this edit.
      if (body.current) body.current.value = updated.getHTML();
      props.onChange?.();
    },
  });
  // The hidden field is written here and by onUpdate only: React re-applies an input's
  // `defaultValue` on every render, and a hidden input's value is that attribute, so a re-render
  // (an autosave's) would put back the body as it was when the editor opened.
  useEffect(() => {
    if (body.current) body.current.value = editor.getHTML();
  }, [editor]);

  return (
    <div className="flex flex-col gap-2">
      <input type="hidden" name="bodyFormat" value="html" />
      <input ref={body} type="hidden" name="body" />
      <EditorToolbar editor={editor} editorId={id} label={props.label} pictures={props.pictures} />
      <EditorContent editor={editor} />
    </div>
  );
}
