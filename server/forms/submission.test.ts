import { describe, expect, it } from "vitest";
import { readForm } from "./submission";

const post = (body: BodyInit | null, contentType?: string) =>
  new Request("http://site.invalid/newsletter", {
    method: "POST",
    body,
    headers: contentType ? { "Content-Type": contentType } : {},
  });

/** The status readForm answers with, or "read" when it returns the form. */
async function outcome(request: Request): Promise<number | "read"> {
  try {
    await readForm(request);
    return "read";
  } catch (error) {
    // `data()` thrown from an action: React Router answers with its status.
    return (error as { init?: ResponseInit | null }).init?.status ?? -1;
  }
}

describe("readForm", () => {
  it.each([
    ["a url-encoded form", post("email=a%40example.com", "application/x-www-form-urlencoded")],
    ["a form with odd case and parameters", post("a=1", "Application/X-WWW-Form-Urlencoded; x=y")],
    ["malformed escapes", post("email=%E0%A4%A&%=%%", "application/x-www-form-urlencoded")],
    ["an empty url-encoded body", post("", "application/x-www-form-urlencoded")],
  ])("reads %s", async (_, request) => {
    expect(await outcome(request)).toBe("read");
  });

  it.each([
    ["JSON", post('{"email":"a@example.com"}', "application/json"), 415],
    ["plain text", post("email=a@example.com", "text/plain")],
    ["no content type", post(new Uint8Array([101, 61, 49]))],
    ["no body at all", post(null)],
    ["multipart without a boundary", post("garbage", "multipart/form-data"), 400],
    ["multipart cut short", post("--x\r\nContent-Disp", "multipart/form-data; boundary=x"), 400],
  ])("answers %s with a 4xx, never a 500", async (_, request, status = 415) => {
    expect(await outcome(request)).toBe(status);
  });
});
