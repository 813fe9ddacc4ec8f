import { Window } from "happy-dom";
import { describe, expect, it } from "vitest";
import { renderInRouter } from "../../lib/test-render";
import { BodyField, type BodyPicture } from "./BodyField";

const PICTURES: BodyPicture[] = [
  { id: 7, src: `/images/${"a".repeat(64)}/960.jpg`, alt: "The pier at dawn" },
];

async function serverRender(props: Partial<Parameters<typeof BodyField>[0]> = {}) {
  const html = await renderInRouter(
    "/newsroom",
    <form method="post">
      <BodyField
        id="body"
        label="Body"
        markdown={"## Tides\n\nThe **pier** <reopens> & more."}
        html="<h2>Tides</h2><p>The <strong>pier</strong> &lt;reopens&gt; &amp; more.</p>"
        pictures={PICTURES}
        {...props}
      />
    </form>,
  );
  const window = new Window();
  window.document.body.innerHTML = html;
  return window.document;
}

describe("BodyField on the server (and without JavaScript)", () => {
  it("is a labelled Markdown text area that posts body and bodyFormat=markdown", async () => {
    const document = await serverRender();
    const area = document.querySelector("textarea");
    expect(area?.getAttribute("name")).toBe("body");
    expect(area?.id).toBe("body");
    expect(area?.value).toBe("## Tides\n\nThe **pier** <reopens> & more.");
    const label = document.querySelector('label[for="body"]');
    expect(label?.textContent).toBe("Body");
    const format = document.querySelectorAll('input[name="bodyFormat"]');
    expect(format).toHaveLength(1);
    expect(format[0]?.getAttribute("type")).toBe("hidden");
    expect(format[0]?.getAttribute("value")).toBe("markdown");
    // The form's fields, as a browser without JavaScript posts them.
    const fields = [...document.querySelectorAll("form [name]")].map((el) =>
      el.getAttribute("name"),
    );
    expect(fields).toEqual(["bodyFormat", "body"]);
  });

  it("says that Markdown works, and the text area points at the hint", async () => {
    const document = await serverRender();
    const hintId = document.querySelector("textarea")?.getAttribute("aria-describedby");
    expect(hintId).toBe("body-hint");
    const hint = document.getElementById("body-hint")?.textContent ?? "";
    for (const example of ["## Heading", "**bold**", "_italic_", "[words](https://…)", "- item"]) {
      expect(hint).toContain(example);
    }
    expect(hint).toContain("> words");
    expect(hint).toContain("![description](/images/…)");
    expect(hint).toContain("a video link alone on a line becomes a player");
  });

  it("lists the library's pictures as Markdown to copy", async () => {
    const document = await serverRender();
    expect(document.querySelector("details code")?.textContent).toBe(
      `![The pier at dawn](/images/${"a".repeat(64)}/960.jpg)`,
    );
    const none = await serverRender({ pictures: [] });
    expect(none.querySelector("details")).toBeNull();
  });

  it("shows a field error and names it as the text area's description", async () => {
    const document = await serverRender({ error: "Write the body." });
    const area = document.querySelector("textarea");
    expect(area?.getAttribute("aria-invalid")).toBe("true");
    expect(area?.getAttribute("aria-describedby")).toBe("body-hint body-error");
    expect(document.getElementById("body-error")?.textContent).toBe("Write the body.");
  });

  it("sends no editor markup from the server", async () => {
    const document = await serverRender();
    expect(document.querySelector("[contenteditable]")).toBeNull();
    expect(document.querySelector('[role="toolbar"]')).toBeNull();
  });
});
