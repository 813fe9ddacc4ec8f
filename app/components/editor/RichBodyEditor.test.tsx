// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BodyField, type BodyPicture } from "./BodyField";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

const PICTURE: BodyPicture = { id: 7, src: `/images/${"a".repeat(64)}/960.jpg`, alt: "The pier" };

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
});

async function mount(html: string, onChange = vi.fn()) {
  const form = document.createElement("form");
  document.body.append(form);
  root = createRoot(form);
  await act(async () => {
    root?.render(
      <BodyField
        id="body"
        label="Body"
        markdown=""
        html={html}
        pictures={[PICTURE]}
        onChange={onChange}
      />,
    );
    // The field's own dynamic import of the editor settles inside act.
    await import("./RichBodyEditor");
  });
  expect(form.querySelector("[contenteditable]")).not.toBeNull();
  return { form, onChange };
}

/** Types into a React-controlled field as a browser does. */
async function type(input: HTMLInputElement | null, value: string) {
  if (!input) throw new Error("no field");
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

const posted = (form: HTMLFormElement) => Object.fromEntries(new FormData(form));
const button = (name: string) => {
  const found = [...document.querySelectorAll("button")].find((b) => b.textContent === name);
  if (!found) throw new Error(`no button ${name}`);
  return found;
};

describe("the rich editor, once the page has hydrated", () => {
  it("replaces the text area and posts the body as HTML", async () => {
    const { form } = await mount("<h2>Tides</h2><p>The <strong>pier</strong> reopens.</p>");
    expect(form.querySelector("textarea")).toBeNull();
    expect(posted(form)).toEqual({
      bodyFormat: "html",
      body: "<h2>Tides</h2><p>The <strong>pier</strong> reopens.</p>",
    });
    const editable = form.querySelector("[contenteditable]");
    expect(editable?.id).toBe("body");
    expect(editable?.getAttribute("role")).toBe("textbox");
    expect(editable?.getAttribute("aria-labelledby")).toBe("body-label");
  });

  it("keeps only our own pictures and no data: addresses from the body it opens", async () => {
    const { form } = await mount(
      `<p>One</p><img src="data:image/png;base64,AAAA" alt="x"><img src="https://other.example/a.jpg" alt="y"><img src="${PICTURE.src}" alt="The pier">`,
    );
    expect(posted(form).body).toBe(`<p>One</p><img src="${PICTURE.src}" alt="The pier">`);
  });

  it("inserts a picture of the library, calling onChange", async () => {
    const { form, onChange } = await mount("<p>Start</p>");
    await act(async () => button("Picture").click());
    expect(document.activeElement?.id).toBe("body-panel-field");
    await act(async () => button("Insert the picture").click());
    // Where the selection is: the start, in a document that was never clicked.
    expect(posted(form).body).toBe(`<img src="${PICTURE.src}" alt="The pier"><p>Start</p>`);
    expect(onChange).toHaveBeenCalled();
    expect(document.getElementById("body-panel")).toBeNull();
  });

  it("inserts a YouTube address as a paragraph holding only its link", async () => {
    const { form } = await mount("<p>Start</p>");
    await act(async () => button("Video").click());
    const field = document.querySelector<HTMLInputElement>("#body-panel-field");
    await type(field, "https://vimeo.com/76979871");
    await act(async () => button("Insert the video").click());
    expect(document.getElementById("body-panel-problem")?.textContent).toMatch(/YouTube/);
    expect(field?.getAttribute("aria-describedby")).toBe("body-panel-problem");
    expect(posted(form).body).toBe("<p>Start</p>");

    await type(field, " https://youtu.be/dQw4w9WgXcQ ");
    await act(async () => button("Insert the video").click());
    const body = new DOMParser().parseFromString(String(posted(form).body), "text/html").body;
    const paragraph = body.querySelector("a")?.parentElement;
    expect(paragraph?.tagName).toBe("P");
    expect(paragraph?.childNodes).toHaveLength(1);
    expect(paragraph?.querySelector("a")?.getAttribute("href")).toBe(
      "https://youtu.be/dQw4w9WgXcQ",
    );
    expect(paragraph?.textContent).toBe("https://youtu.be/dQw4w9WgXcQ");
    expect(body.textContent).toContain("Start");
  });

  it("links only to http(s) addresses and our own paths", async () => {
    const { form } = await mount("<p>Start</p>");
    await act(async () => button("Link").click());
    const field = document.querySelector<HTMLInputElement>("#body-panel-field");
    await type(field, "javascript:alert(1)");
    await act(async () => button("Apply the link").click());
    expect(document.getElementById("body-panel-problem")).not.toBeNull();
    await type(field, "/article/42");
    await act(async () => button("Apply the link").click());
    expect(String(posted(form).body)).toMatch(
      /<a [^>]*href="\/article\/42"[^>]*>\/article\/42<\/a>/,
    );
  });

  it("has a toolbar of named buttons, marks pressed or not", async () => {
    await mount("<p>Start</p>");
    const toolbar = document.querySelector('[role="toolbar"]');
    const names = [...(toolbar?.querySelectorAll("button") ?? [])].map((b) => b.textContent);
    expect(names).toEqual([
      "Heading",
      "Subheading",
      "Bold",
      "Italic",
      "Link",
      "Bulleted list",
      "Numbered list",
      "Quote",
      "Picture",
      "Video",
      "Undo",
      "Redo",
    ]);
    expect(button("Bold").getAttribute("aria-pressed")).toBe("false");
    expect(button("Bold").type).toBe("button");
  });
});
