import { bodyVideos } from "../../shared/body-videos";
import { privacyPlayerUrl } from "../../shared/video";

/** Text for HTML, in an element or a double-quoted attribute. */
const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The poster a player frame shows until it is played: a page of its own (the frame's `srcdoc`),
 * one link to the privacy-enhanced player filling it. The link opens in the frame, so a tap plays
 * the video in place, with or without the page's JavaScript. Its look is the site's player's
 * (components/Embed.tsx): the brand's gradient, a red play button, the video's name.
 */
function posterDocument(id: string, title: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(title)}</title><style>` +
    "html,body{height:100%;margin:0}" +
    "a{box-sizing:border-box;display:flex;height:100%;flex-direction:column;align-items:center;" +
    "justify-content:center;gap:12px;padding:0 16px;background:linear-gradient(to bottom right," +
    "#083d5c,#0f172a);color:#fff;font:600 16px/1.5 system-ui,sans-serif;text-align:center;" +
    "text-decoration:none}" +
    "a:focus-visible{outline:3px solid #fff;outline-offset:-6px}" +
    "span{display:flex;width:64px;height:64px;align-items:center;justify-content:center;" +
    "border-radius:50%;background:#dc2626;font-size:30px;box-shadow:0 10px 15px rgb(0 0 0/.3)}" +
    "a:hover span{transform:scale(1.05)}" +
    `</style></head><body><a href="${escapeHtml(privacyPlayerUrl(id, true))}">` +
    `<span aria-hidden="true">▶</span>Play video: ${escapeHtml(title)}</a></body></html>`
  );
}

/**
 * An own story's body with each paragraph that is only a YouTube link (shared/body-videos.ts)
 * drawn as a video player, in the HTML itself: a lazy frame whose first page is the poster, and
 * which becomes the privacy-enhanced player when the reader taps it. The article page therefore
 * ships no code for it (its JavaScript budget, server/http/bundle-size.ts), and it plays without
 * JavaScript too. Nothing of YouTube's loads before the tap. `html` is the sanitised body.
 */
export function withVideoPlayers(html: string): string {
  const videos = bodyVideos(html);
  if (videos.length === 0) return html;
  let out = "";
  let last = 0;
  for (const { id, title, start, end } of videos) {
    out +=
      html.slice(last, start) +
      '<div data-video-state="ready" class="relative aspect-video w-full overflow-hidden rounded-lg bg-slate-900">' +
      `<iframe title="Video: ${escapeHtml(title)}" srcdoc="${escapeHtml(posterDocument(id, title))}"` +
      ' loading="lazy" allow="autoplay; encrypted-media; picture-in-picture" allowfullscreen' +
      ' referrerpolicy="strict-origin-when-cross-origin"' +
      ' class="absolute inset-0 h-full w-full border-0"></iframe></div>';
    last = end;
  }
  return out + html.slice(last);
}
