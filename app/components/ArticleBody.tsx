import { splitBodyVideos } from "../../shared/body-videos";
import { VideoEmbed } from "./Embed";

/**
 * A story's or post's body: sanitised HTML (server/ingest/sanitize.ts), rendered as it is, with
 * each paragraph that is only a YouTube link drawn as the site's video player (splitBodyVideos).
 * A body with no such link is one element, as it always was; in one with a player the HTML between
 * players keeps the body's paragraph spacing (`space-y-4`, as the pages' bodies have).
 */
export function ArticleBody({ html, className }: { html: string; className?: string }) {
  const segments = splitBodyVideos(html);
  if (!segments.some((segment) => segment.kind === "video")) {
    return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <div className={className}>
      {segments.map((segment, i) =>
        segment.kind === "html" ? (
          <div key={i} className="space-y-4" dangerouslySetInnerHTML={{ __html: segment.html }} />
        ) : (
          <VideoEmbed key={i} url={segment.url} title={segment.title} />
        ),
      )}
    </div>
  );
}
