import { useEditorState, type Editor } from "@tiptap/react";
import { useRef, useState, type KeyboardEvent } from "react";
import type { BodyPicture } from "./BodyField";
import { EditorPanel, type PanelKind } from "./EditorPanel";

/** The rich editor's buttons: one tab stop, the arrow keys move along it (the ARIA toolbar pattern). */

const TOOL_BUTTON =
  "min-h-10 rounded border border-slate-400 bg-white px-2.5 text-sm font-semibold hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand aria-disabled:cursor-not-allowed aria-disabled:text-slate-500 aria-expanded:bg-slate-200 aria-pressed:border-brand-dark aria-pressed:bg-brand-dark aria-pressed:text-white";

type Chain = ReturnType<Editor["chain"]>;

interface Tool {
  name: string;
  className?: string;
  /** What the selection has when the button shows pressed (aria-pressed); none for a plain button. */
  active?: [name: string, attributes?: Record<string, unknown>];
  /** Whether the button can act now (aria-disabled when not); none for one that always can. */
  can?: (editor: Editor) => boolean;
  /** The box a button opens instead of acting at once. */
  panel?: PanelKind;
  run?: (chain: Chain) => Chain;
}

const TOOLS: Tool[] = [
  { name: "Heading", active: ["heading", { level: 2 }], run: (c) => c.toggleHeading({ level: 2 }) },
  {
    name: "Subheading",
    active: ["heading", { level: 3 }],
    run: (c) => c.toggleHeading({ level: 3 }),
  },
  { name: "Bold", active: ["bold"], run: (c) => c.toggleBold() },
  { name: "Italic", className: "italic", active: ["italic"], run: (c) => c.toggleItalic() },
  { name: "Link", active: ["link"], panel: "link" },
  { name: "Bulleted list", active: ["bulletList"], run: (c) => c.toggleBulletList() },
  { name: "Numbered list", active: ["orderedList"], run: (c) => c.toggleOrderedList() },
  { name: "Quote", active: ["blockquote"], run: (c) => c.toggleBlockquote() },
  { name: "Picture", panel: "picture" },
  { name: "Video", panel: "video" },
  { name: "Undo", can: (e) => e.can().undo(), run: (c) => c.undo() },
  { name: "Redo", can: (e) => e.can().redo(), run: (c) => c.redo() },
];

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
  const states = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      TOOLS.map((tool) => ({
        pressed: tool.active && e.isActive(...tool.active),
        disabled: tool.can && !tool.can(e),
      })),
  });
  const [panel, setPanel] = useState<PanelKind | null>(null);
  const [current, setCurrent] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const tools = TOOLS.map((tool, index) => ({ ...tool, ...states[index] }));

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
            key={tool.name}
            ref={(button) => {
              buttons.current[index] = button;
            }}
            type="button"
            tabIndex={index === current ? 0 : -1}
            onFocus={() => setCurrent(index)}
            aria-pressed={tool.pressed}
            aria-disabled={tool.disabled ? true : undefined}
            aria-expanded={tool.panel && tool.panel !== "link" ? panel === tool.panel : undefined}
            aria-controls={tool.panel && panel === tool.panel ? panelId : undefined}
            onMouseDown={(event) => {
              // Keeps the editor's selection, which the button acts on.
              if (!tool.panel) event.preventDefault();
            }}
            onClick={() => {
              if (tool.disabled) return;
              if (tool.panel) setPanel(panel === tool.panel ? null : tool.panel);
              else tool.run?.(editor.chain().focus()).run();
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
