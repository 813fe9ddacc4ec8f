import { createHash } from "node:crypto";
import { Window } from "happy-dom";

/** Whether a browser runs a script element of this `type` (anything else is a data block). */
const runs = (type: string | null) =>
  type === null ||
  /^\s*(?:|module|(?:text|application)\/(?:x-)?(?:java|ecma)script)\s*$/i.test(type);

/**
 * The inline scripts of `html` that a browser would refuse to run under `policy`, each as its first
 * 80 characters. The page is parsed as a browser parses it, and each script is allowed, as CSP Level
 * 3 says, only by a `'nonce-…'` its nonce attribute matches or by the `'sha256-…'` of its text:
 * worked out here from the page and the header, not by the code that wrote them.
 */
export async function refusedInlineScripts(html: string, policy: string): Promise<string[]> {
  const sources = /(?:^|;)\s*script-src\s+([^;]*)/.exec(policy)?.[1]?.trim().split(/\s+/) ?? [];
  const window = new Window();
  try {
    const document = new window.DOMParser().parseFromString(html, "text/html");
    return [...document.querySelectorAll("script")]
      .filter((script) => !script.hasAttribute("src") && runs(script.getAttribute("type")))
      .filter((script) => {
        const hash = createHash("sha256").update(script.textContent, "utf8").digest("base64");
        const nonce = script.getAttribute("nonce");
        return !(
          sources.includes(`'sha256-${hash}'`) ||
          (nonce !== null && nonce !== "" && sources.includes(`'nonce-${nonce}'`))
        );
      })
      .map((script) => script.textContent.slice(0, 80));
  } finally {
    await window.happyDOM.close();
  }
}

/** How many inline scripts a browser would run in `html`: a check above is not vacuous. */
export async function inlineScriptCount(html: string): Promise<number> {
  return (await refusedInlineScripts(html, "")).length;
}
