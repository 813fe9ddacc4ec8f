import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/**
 * The newsletter's mails as HTML, rendered by React as the site's pages are: every text from a
 * feed is escaped the same way. Mail clients read only inline styles and simple tables.
 */

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const BRAND = "#0b3d91";

export interface DigestStory {
  title: string;
  excerpt: string;
  url: string;
  /** An absolute address of a JPEG copy on our own origin, or null. */
  picture: { url: string; width: number; height: number } | null;
}

export interface DigestSection {
  heading: string;
  stories: DigestStory[];
}

function document(title: string, body: ReactNode): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: "#f1f5f9", fontFamily: FONT }}>
        <table
          role="presentation"
          width="100%"
          cellPadding={0}
          cellSpacing={0}
          style={{ background: "#f1f5f9" }}
        >
          <tbody>
            <tr>
              <td align="center" style={{ padding: "16px 8px" }}>
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{ maxWidth: 600, background: "#ffffff", borderRadius: 8 }}
                >
                  <tbody>{body}</tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>,
  )}`;
}

function Masthead({ siteName, siteUrl }: { siteName: string; siteUrl: string }) {
  return (
    <tr>
      <td style={{ background: BRAND, padding: "16px 24px", borderRadius: "8px 8px 0 0" }}>
        <a href={siteUrl} style={{ color: "#ffffff", fontSize: 20, fontWeight: 700 }}>
          {siteName}
        </a>
      </td>
    </tr>
  );
}

function Footer({ children }: { children: ReactNode }) {
  return (
    <tr>
      <td style={{ padding: "16px 24px", color: "#475569", fontSize: 13, lineHeight: 1.5 }}>
        {children}
      </td>
    </tr>
  );
}

interface ConfirmationMail {
  siteName: string;
  siteUrl: string;
  confirmUrl: string;
  unsubscribeUrl: string;
  hours: number;
}

export function confirmationHtml(mail: ConfirmationMail): string {
  return document(
    `Confirm your subscription to ${mail.siteName}`,
    <>
      <Masthead siteName={mail.siteName} siteUrl={mail.siteUrl} />
      <tr>
        <td style={{ padding: 24, color: "#0f172a", fontSize: 16, lineHeight: 1.5 }}>
          <h1 style={{ fontSize: 22, margin: "0 0 12px" }}>Confirm your subscription</h1>
          <p style={{ margin: "0 0 16px" }}>
            Someone, we hope you, asked for {mail.siteName}&apos;s daily newsletter at this address.
            Confirm, and the day&apos;s San Diego stories arrive every morning.
          </p>
          <p style={{ margin: "0 0 16px" }}>
            <a
              href={mail.confirmUrl}
              style={{
                display: "inline-block",
                background: BRAND,
                color: "#ffffff",
                padding: "12px 20px",
                borderRadius: 6,
                fontWeight: 700,
                textDecoration: "none",
              }}
            >
              Confirm my subscription
            </a>
          </p>
          <p style={{ margin: 0, fontSize: 14, color: "#475569" }}>
            The link works for {mail.hours} hours. If you did not sign up, ignore this message: you
            will not be subscribed.
          </p>
        </td>
      </tr>
      <Footer>
        <a href={mail.unsubscribeUrl} style={{ color: "#475569" }}>
          Never mail this address again
        </a>
      </Footer>
    </>,
  );
}

export function confirmationText(mail: ConfirmationMail): string {
  return [
    `Someone, we hope you, asked for ${mail.siteName}'s daily newsletter at this address.`,
    "Confirm, and the day's San Diego stories arrive every morning:",
    "",
    mail.confirmUrl,
    "",
    `The link works for ${mail.hours} hours. If you did not sign up, ignore this message:`,
    "you will not be subscribed.",
    "",
    `Never mail this address again: ${mail.unsubscribeUrl}`,
    "",
  ].join("\n");
}

interface DigestMail {
  siteName: string;
  siteUrl: string;
  title: string;
  sections: DigestSection[];
  unsubscribeUrl: string;
}

export function digestHtml(digest: DigestMail): string {
  return document(
    digest.title,
    <>
      <Masthead siteName={digest.siteName} siteUrl={digest.siteUrl} />
      <tr>
        <td style={{ padding: "20px 24px 0", color: "#0f172a" }}>
          <h1 style={{ fontSize: 22, margin: 0 }}>{digest.title}</h1>
        </td>
      </tr>
      {digest.sections.map((section) => (
        <tr key={section.heading}>
          <td style={{ padding: "20px 24px 0", color: "#0f172a" }}>
            <h2
              style={{
                fontSize: 14,
                textTransform: "uppercase",
                letterSpacing: 1,
                color: BRAND,
                margin: "0 0 8px",
                borderBottom: `2px solid ${BRAND}`,
                paddingBottom: 4,
              }}
            >
              {section.heading}
            </h2>
            {section.stories.map((story) => (
              <div key={story.url} style={{ padding: "8px 0 12px" }}>
                {story.picture ? (
                  <a href={story.url}>
                    <img
                      src={story.picture.url}
                      width={story.picture.width}
                      height={story.picture.height}
                      alt=""
                      style={{
                        display: "block",
                        width: "100%",
                        maxWidth: story.picture.width,
                        height: "auto",
                        borderRadius: 6,
                        marginBottom: 8,
                      }}
                    />
                  </a>
                ) : null}
                <a
                  href={story.url}
                  style={{
                    color: "#0f172a",
                    fontSize: 18,
                    fontWeight: 700,
                    lineHeight: 1.3,
                    textDecoration: "none",
                  }}
                >
                  {story.title}
                </a>
                {story.excerpt ? (
                  <p style={{ margin: "4px 0 0", fontSize: 15, lineHeight: 1.5, color: "#334155" }}>
                    {story.excerpt}
                  </p>
                ) : null}
              </div>
            ))}
          </td>
        </tr>
      ))}
      <Footer>
        You get this because you confirmed a subscription to {digest.siteName}&apos;s newsletter.{" "}
        <a href={digest.unsubscribeUrl} style={{ color: "#475569" }}>
          Unsubscribe
        </a>
      </Footer>
    </>,
  );
}

export function digestText(digest: DigestMail): string {
  const lines = [digest.siteName, digest.title, ""];
  for (const section of digest.sections) {
    lines.push(section.heading.toUpperCase(), "");
    for (const story of section.stories) {
      lines.push(story.title);
      if (story.excerpt) lines.push(story.excerpt);
      lines.push(story.url, "");
    }
  }
  lines.push(
    `You get this because you confirmed a subscription to ${digest.siteName}'s newsletter.`,
    `Unsubscribe: ${digest.unsubscribeUrl}`,
    "",
  );
  return lines.join("\n");
}
