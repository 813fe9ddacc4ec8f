/**
 * A fast reading of an HTML fragment that gives exactly the events htmlparser2's Parser gives (HTML mode,
 * entities decoded): the same tags, the same implied closes, the same text. htmlparser2 looks at every
 * character through a state machine; this looks for the next `<` with indexOf and decodes the text between
 * with the same entity decoder (the `entities` package), which is several times faster on feed content.
 *
 * It gives up (returns false, having perhaps already reported some events) when the fragment ends inside a
 * tag, comment or raw-text element: the caller then reads the fragment again with htmlparser2.
 * html.test.ts compares the two readings, event by event.
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";
import { decodeWith } from "./text";

export interface HtmlHandler {
  /** A tag as written: its name is `source.slice(start, end)`; reported before the tag takes effect. */
  literalTag(start: number, end: number, closing: boolean): void;
  /** Whether `onopentag` needs the attributes of this element (asked once it is open); else it gets {}. */
  wantsAttributes(name: string): boolean;
  onopentag(name: string, attribs: Record<string, string>): void;
  ontext(text: string): void;
  onclosetag(name: string): void;
}

// htmlparser2's Parser tables (Parser.ts), for HTML mode.
const formTags = new Set([
  "input",
  "option",
  "optgroup",
  "select",
  "button",
  "datalist",
  "textarea",
]);
const pTag = new Set(["p"]);
const tableSectionTags = new Set(["thead", "tbody"]);
const ddtTags = new Set(["dd", "dt"]);
const rtpTags = new Set(["rt", "rp"]);
const openImpliesClose = new Map<string, Set<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["li", new Set(["li"])],
  ["p", pTag],
  ["h1", pTag],
  ["h2", pTag],
  ["h3", pTag],
  ["h4", pTag],
  ["h5", pTag],
  ["h6", pTag],
  ["select", formTags],
  ["input", formTags],
  ["output", formTags],
  ["button", formTags],
  ["datalist", formTags],
  ["textarea", formTags],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["dd", ddtTags],
  ["dt", ddtTags],
  ["address", pTag],
  ["article", pTag],
  ["aside", pTag],
  ["blockquote", pTag],
  ["details", pTag],
  ["div", pTag],
  ["dl", pTag],
  ["fieldset", pTag],
  ["figcaption", pTag],
  ["figure", pTag],
  ["footer", pTag],
  ["form", pTag],
  ["header", pTag],
  ["hr", pTag],
  ["main", pTag],
  ["nav", pTag],
  ["ol", pTag],
  ["pre", pTag],
  ["section", pTag],
  ["table", pTag],
  ["ul", pTag],
  ["rt", rtpTags],
  ["rp", rtpTags],
  ["tbody", tableSectionTags],
  ["tfoot", tableSectionTags],
]);
const voidElements = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
const foreignContextElements = new Set(["math", "svg"]);
const htmlIntegrationElements = new Set([
  "mi",
  "mo",
  "mn",
  "ms",
  "mtext",
  "annotation-xml",
  "foreignobject",
  "desc",
  "title",
]);
// Tags whose content is raw text up to a closing tag (the tokenizer's "special" tags), and that closing
// tag. The tokenizer tells them by their first two letters and the rest of the name, hence the odd ones.
const rawTextEnd = new Map([
  ["script", "</script"],
  ["style", "</style"],
  ["title", "</title"],
  ["xitle", "</title"],
  ["textarea", "</textarea"],
  ["xextarea", "</textarea"],
  ["xmp", "</xmp"],
  ["tmp", "</xmp"],
]);

// What a handler that wants no attributes gets (handlers never change the attributes they are given).
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

/** What the tables say about one tag name, looked up once per tag. */
interface TagInfo {
  impliesClose: Set<string> | undefined;
  isVoid: boolean;
  /** Pushed on the foreign context when the element opens: true in svg and math, false in their HTML islands. */
  context: boolean | undefined;
  rawEnd: string | undefined;
}

const PLAIN_TAG: TagInfo = {
  impliesClose: undefined,
  isVoid: false,
  context: undefined,
  rawEnd: undefined,
};

const tagInfos = new Map<string, TagInfo>();
for (const name of [
  ...openImpliesClose.keys(),
  ...voidElements,
  ...foreignContextElements,
  ...htmlIntegrationElements,
  ...rawTextEnd.keys(),
]) {
  tagInfos.set(name, {
    impliesClose: openImpliesClose.get(name),
    isVoid: voidElements.has(name),
    context: foreignContextElements.has(name)
      ? true
      : htmlIntegrationElements.has(name)
        ? false
        : undefined,
    rawEnd: rawTextEnd.get(name),
  });
}

function tagInfo(name: string): TagInfo {
  return tagInfos.get(name) ?? PLAIN_TAG;
}

const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

function isEndOfTagSection(c: number): boolean {
  return c === SLASH || c === GT || isWhitespace(c);
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** Decoded text, as htmlparser2 decodes text (legacy entities without `;` included). */
export function textOf(raw: string): string {
  return decodeWith(raw, decodeHTML);
}

function valueOf(raw: string): string {
  return decodeWith(raw, decodeHTMLAttribute);
}

class Reader {
  /** Open elements, innermost last (htmlparser2 keeps them innermost first). */
  private readonly stack: string[] = [];
  /** Whether self-closing tags count (inside svg and math), innermost last. */
  private readonly foreignContext: boolean[] = [false];
  /** Whether the source holds U+000F or U+001C (see rawText), once asked. */
  private oddControls: boolean | null = null;

  constructor(
    private readonly source: string,
    private readonly handler: HtmlHandler,
  ) {}

  /** Reads the whole fragment; false when it ends in the middle of a construct. */
  run(): boolean {
    const source = this.source;
    const length = source.length;
    let textStart = 0;
    let i = 0;
    for (;;) {
      const lt = source.indexOf("<", i);
      if (lt === -1 || lt === length - 1) {
        // The end; a final lone `<` is text too.
        this.text(textStart, length);
        break;
      }
      const c = source.charCodeAt(lt + 1);
      let next: number;
      if (isAsciiAlpha(c)) {
        this.text(textStart, lt);
        next = this.openTag(lt + 1);
      } else if (c === SLASH) {
        let k = lt + 2;
        while (k < length && isWhitespace(source.charCodeAt(k))) k++;
        if (k >= length) return false;
        if (source.charCodeAt(k) === GT) {
          // `</>` (spaces allowed) is nothing, and the tokenizer leaves it in the text.
          i = k + 1;
          continue;
        }
        this.text(textStart, lt);
        next = this.closingTag(k);
      } else if (c === 0x21) {
        this.text(textStart, lt);
        next = this.declaration(lt + 2);
      } else if (c === 0x3f) {
        this.text(textStart, lt);
        next = this.skipTo(GT, lt + 2);
      } else {
        // Not a tag: the `<` is text.
        i = lt + 1;
        continue;
      }
      if (next === -1) return false;
      textStart = i = next;
    }
    for (let k = this.stack.length - 1; k >= 0; k--) this.handler.onclosetag(this.stack[k] ?? "");
    return true;
  }

  private text(start: number, end: number): void {
    if (end > start) this.handler.ontext(textOf(this.source.slice(start, end)));
  }

  /** Index after the next `>` at or after `from`, or -1. */
  private skipTo(char: number, from: number): number {
    const end = this.source.indexOf(String.fromCharCode(char), from);
    return end === -1 ? -1 : end + 1;
  }

  /** `<!`: a comment, CDATA (a comment in HTML) or a declaration, all ignored. */
  private declaration(at: number): number {
    const source = this.source;
    if (at >= source.length) return -1;
    const c = source.charCodeAt(at);
    if (c === 0x2d) {
      if (at + 1 >= source.length) return -1;
      if (source.charCodeAt(at + 1) === 0x2d) {
        // `<!--`: ends at the first `-->`, whose dashes may be the opening ones (`<!-->`).
        const end = source.indexOf("-->", at);
        return end === -1 ? -1 : end + 3;
      }
      // `<!-x`: a declaration; the character after the dash is skipped unseen.
      return this.skipTo(GT, at + 2);
    }
    if (c === 0x5b) {
      const cdata = "CDATA[";
      for (let k = 0; k < cdata.length; k++) {
        const at2 = at + 1 + k;
        if (at2 >= source.length) return -1;
        if (source.charCodeAt(at2) !== cdata.charCodeAt(k)) return this.skipTo(GT, at2);
      }
      const end = source.indexOf("]]>", at + 1 + cdata.length);
      return end === -1 ? -1 : end + 3;
    }
    // `<!x`: a declaration; its first character is skipped unseen.
    return this.skipTo(GT, at + 1);
  }

  /** A closing tag whose name (after `</` and any whitespace) starts at `at`, which is not `>`. */
  private closingTag(at: number): number {
    const source = this.source;
    let i = at;
    if (!isAsciiAlpha(source.charCodeAt(i))) return this.skipTo(GT, i + 1);
    const start = i;
    while (i < source.length) {
      const d = source.charCodeAt(i);
      if (d === GT || isWhitespace(d)) break;
      i++;
    }
    if (i >= source.length) return -1;
    this.closeTag(start, i);
    return source.charCodeAt(i) === GT ? i + 1 : this.skipTo(GT, i + 1);
  }

  /** htmlparser2's Parser.onclosetag. */
  private closeTag(start: number, end: number): void {
    this.handler.literalTag(start, end, true);
    const name = this.source.slice(start, end).toLowerCase();
    const info = tagInfo(name);
    if (info.context !== undefined) this.foreignContext.pop();
    const stack = this.stack;
    if (!info.isVoid) {
      const pos = stack.lastIndexOf(name);
      if (pos !== -1) {
        while (stack.length > pos) this.handler.onclosetag(stack.pop() ?? "");
      } else if (name === "p") {
        this.emitOpenTag("p", tagInfo("p"));
        this.handler.onopentag("p", {});
        if (stack[stack.length - 1] === "p") {
          this.handler.onclosetag("p");
          stack.pop();
        }
      }
    } else if (name === "br") {
      this.handler.onopentag("br", {});
      this.handler.onclosetag("br");
    }
  }

  /** htmlparser2's Parser.emitOpenTag: implied closes, then the element is open. */
  private emitOpenTag(name: string, info: TagInfo): void {
    const stack = this.stack;
    const impliesClose = info.impliesClose;
    if (impliesClose !== undefined) {
      while (stack.length > 0 && impliesClose.has(stack[stack.length - 1] ?? "")) {
        this.handler.onclosetag(stack.pop() ?? "");
      }
    }
    if (!info.isVoid) {
      stack.push(name);
      if (info.context !== undefined) this.foreignContext.push(info.context);
    }
  }

  /** htmlparser2's Parser.endOpenTag. */
  private endOpenTag(name: string, info: TagInfo, attribs: Record<string, string>): void {
    this.handler.onopentag(name, attribs);
    if (info.isVoid) this.handler.onclosetag(name);
  }

  /** An opening tag whose name starts at `at`; returns the index after it. */
  private openTag(at: number): number {
    const source = this.source;
    const length = source.length;
    let i = at;
    while (i < length && !isEndOfTagSection(source.charCodeAt(i))) i++;
    if (i >= length) return -1;
    this.handler.literalTag(at, i, false);
    const name = source.slice(at, i).toLowerCase();
    const info = tagInfo(name);
    this.emitOpenTag(name, info);
    // Attributes are always read (they decide where the tag ends) but only kept when wanted.
    const attribs: Record<string, string> | null = this.handler.wantsAttributes(name) ? {} : null;
    let selfClosing = false;
    // The attributes, as htmlparser2's tokenizer reads them.
    for (;;) {
      if (i >= length) return -1;
      let c = source.charCodeAt(i);
      if (c === GT) break;
      if (c === SLASH) {
        // In a self-closing tag: whitespace stays there, `>` ends the tag, anything else is read anew.
        i++;
        while (i < length && isWhitespace(source.charCodeAt(i))) i++;
        if (i >= length) return -1;
        if (source.charCodeAt(i) === GT) {
          selfClosing = true;
          break;
        }
        continue;
      }
      if (isWhitespace(c)) {
        i++;
        continue;
      }
      // An attribute name: up to `=`, whitespace, `/` or `>`.
      const nameStart = i;
      i++;
      while (i < length) {
        c = source.charCodeAt(i);
        if (c === EQ || isEndOfTagSection(c)) break;
        i++;
      }
      if (i >= length) return -1;
      const nameEnd = i;
      while (i < length && isWhitespace(source.charCodeAt(i))) i++;
      if (i >= length) return -1;
      let valueStart = i;
      let valueEnd = i;
      if (source.charCodeAt(i) === EQ) {
        i++;
        while (i < length && isWhitespace(source.charCodeAt(i))) i++;
        if (i >= length) return -1;
        c = source.charCodeAt(i);
        if (c === 0x22 || c === 0x27) {
          const close = source.indexOf(c === 0x22 ? '"' : "'", i + 1);
          if (close === -1) return -1;
          valueStart = i + 1;
          valueEnd = close;
          i = close + 1;
        } else {
          valueStart = i;
          while (i < length) {
            c = source.charCodeAt(i);
            if (c === GT || isWhitespace(c)) break;
            i++;
          }
          if (i >= length) return -1;
          valueEnd = i;
        }
      }
      if (attribs !== null) {
        const attribute = source.slice(nameStart, nameEnd).toLowerCase();
        if (!Object.prototype.hasOwnProperty.call(attribs, attribute)) {
          attribs[attribute] = valueOf(source.slice(valueStart, valueEnd));
        }
      }
    }
    // `i` is at the `>` that ends the tag.
    const attributes = attribs ?? NO_ATTRIBUTES;
    if (selfClosing && this.foreignContext[this.foreignContext.length - 1] === true) {
      // htmlparser2's closeCurrentTag: the element closes at once.
      this.endOpenTag(name, info, attributes);
      const stack = this.stack;
      if (stack[stack.length - 1] === name) {
        this.handler.onclosetag(name);
        stack.pop();
      }
      return i + 1;
    }
    this.endOpenTag(name, info, attributes);
    const rawEnd = selfClosing ? undefined : info.rawEnd;
    return rawEnd === undefined ? i + 1 : this.rawText(rawEnd, i + 1);
  }

  /**
   * The content of a raw-text element: up to `end` (`</script`, ...) followed by whitespace or `>`,
   * matched as the tokenizer does, by ORing each character with 0x20.
   */
  private rawText(end: string, from: number): number {
    const source = this.source;
    // (c | 0x20) also takes U+000F for "/" and U+001C for "<": leave such text to htmlparser2.
    this.oddControls ??= source.includes("\u000f") || source.includes("\u001c");
    if (this.oddControls) return -1;
    let i = from;
    for (;;) {
      const lt = source.indexOf("<", i);
      if (lt === -1 || lt + end.length >= source.length) return -1;
      let matches = true;
      for (let k = 1; k < end.length; k++) {
        if ((source.charCodeAt(lt + k) | 0x20) !== end.charCodeAt(k)) {
          matches = false;
          break;
        }
      }
      const after = source.charCodeAt(lt + end.length);
      if (matches && (after === GT || isWhitespace(after))) {
        const content = source.slice(from, lt);
        // Raw text is not decoded, except in a title.
        if (content !== "") this.handler.ontext(end === "</title" ? textOf(content) : content);
        const tagEnd = lt + end.length;
        this.closeTag(lt + 2, tagEnd);
        return after === GT ? tagEnd + 1 : this.skipTo(GT, tagEnd + 1);
      }
      i = lt + 1;
    }
  }
}

/**
 * Reads `source` as htmlparser2's Parser would (HTML mode, entities decoded) and reports the events to
 * `handler`. Returns false when the fragment ends inside a construct; events may have been reported.
 */
export function readHtml(source: string, handler: HtmlHandler): boolean {
  return new Reader(source, handler).run();
}
