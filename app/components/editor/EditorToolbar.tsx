import { useEditorState, type Editor } from "@tiptap/react";
import { useRef, useState, type KeyboardEvent } from "react";
import type { BodyPicture } from "./BodyField";
import { EditorPanel, type PanelKind } from "./EditorPanel";

/** The rich editor's buttons: one tab stop, the arrow keys move along it (the ARIA toolbar pattern). */

const TOOL_BUTTON =
  "min-h-10 rounded border border-slate-400 bg-white px-2.5 text-sm font-semibold hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand aria-disabled:cursor-not-allowed aria-disabled:text-slate-500 aria-expanded:bg-slate-200 aria-pressed:border-brand-dark aria-pressed:bg-brand-dark aria-pressed:text-white";

interface Tool {
  key: string;
  name: string;
  className?: string;
  /** Whether the selection has it, for a toggle (aria-pressed); undefined for a plain button. */
  pressed?: boolean;
  disabled?: boolean;
  /** The box a button opens instead of acting at once. */
  panel?: PanelKind;
  run?: () => void;
}

export function EditorToolbar({
  editor,
  editorId,
  label,
  pictures,
}: {
  editor: Editor;
  editorId: string;
  label: string;
  pictures: BodyPicture[];
}) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      heading: e.isActive("heading", { level: 2 }),
      subheading: e.isActive("heading", { level: 3 }),
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      link: e.isActive("link"),
      bulletList: e.isActive("bulletList"),
      orderedList: e.isActive("orderedList"),
      quote: e.isActive("blockquote"),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const [panel, setPanel] = useState<PanelKind | null>(null);
  const [current, setCurrent] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const chain = () => editor.chain().focus();

  const tools: Tool[] = [
    {
      key: "heading",
      name: "Heading",
      pressed: state.heading,
      run: () => chain().toggleHeading({ level: 2 }).run(),
    },
    {
      key: "subheading",
      name: "Subheading",
      pressed: state.subheading,
      run: () => chain().toggleHeading({ level: 3 }).run(),
    },
    { key: "bold", name: "Bold", pressed: state.bold, run: () => chain().toggleBold().run() },
    {
      key: "italic",
      name: "Italic",
      className: "italic",
      pressed: state.italic,
      run: () => chain().toggleItalic().run(),
    },
    { key: "link", name: "Link", pressed: state.link, panel: "link" },
    {
      key: "bullets",
      name: "Bulleted list",
      pressed: state.bulletList,
      run: () => chain().toggleBulletList().run(),
    },
    {
      key: "numbers",
      name: "Numbered list",
      pressed: state.orderedList,
      run: () => chain().toggleOrderedList().run(),
    },
    {
      key: "quote",
      name: "Quote",
      pressed: state.quote,
      run: () => chain().toggleBlockquote().run(),
    },
    { key: "picture", name: "Picture", panel: "picture" },
    { key: "video", name: "Video", panel: "video" },
    { key: "undo", name: "Undo", disabled: !state.canUndo, run: () => chain().undo().run() },
    { key: "redo", name: "Redo", disabled: !state.canRedo, run: () => chain().redo().run() },
  ];

  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = tools.length - 1;
    const next =
      event.key === "ArrowRight"
        ? (current + 1) % tools.length
        : event.key === "ArrowLeft"
          ? (current + last) % tools.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setCurrent(next);
    buttons.current[next]?.focus();
  };

  const openPanel = tools.find((tool) => tool.panel !== undefined && tool.panel === panel);
  const panelId = `${editorId}-panel`;
  const closePanel = (returnFocus: boolean) => {
    const index = tools.findIndex((tool) => tool.panel === panel);
    setPanel(null);
    if (returnFocus) buttons.current[index]?.focus();
  };

  return (
    <div className="flex flex-col gap-2">
      <div
        role="toolbar"
        aria-label={`${label}: formatting`}
        aria-controls={editorId}
        onKeyDown={moveFocus}
        className="flex flex-wrap gap-1.5"
      >
        {tools.map((tool, index) => (
          <button
            key={tool.key}
            ref={(button) => {
              buttons.current[index] = button;
            }}
            type="button"
            tabIndex={index === current ? 0 : -1}
            onFocus={() => setCurrent(index)}
            aria-pressed={tool.pressed}
            aria-disabled={tool.disabled ? true : undefined}
            aria-expanded={tool.panel && tool.key !== "link" ? panel === tool.panel : undefined}
            aria-controls={tool.panel && panel === tool.panel ? panelId : undefined}
            onMouseDown={(event) => {
              // Keeps the editor's selection, which the button acts on.
              if (!tool.panel) event.preventDefault();
            }}
            onClick={() => {
              if (tool.disabled) return;
              if (tool.panel) setPanel(panel === tool.panel ? null : tool.panel);
              else tool.run?.();
            }}
            className={`${TOOL_BUTTON} ${tool.className ?? ""}`}
          >
            {tool.name}
          </button>
        ))}
      </div>
      {openPanel?.panel ? (
        <EditorPanel
          key={openPanel.panel}
          id={panelId}
          kind={openPanel.panel}
          editor={editor}
          pictures={pictures}
          onClose={closePanel}
        />
      ) : null}
    </div>
  );
}
