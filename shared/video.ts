const ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The 11-character video id in a youtu.be/, watch?v=, /shorts/ or /embed/ address; null when there
 * is none (the spec then builds a player with an empty id, which cannot play: the video block says
 * the video is unavailable instead, components/Embed.tsx).
 */
export function youtubeVideoId(address: string | null | undefined): string | null {
  if (!address) return null;
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^(www\.|m\.)/, "");
  let candidate: string | null | undefined = null;
  if (host === "youtu.be") {
    candidate = url.pathname.split("/")[1];
  } else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    const [, first, second] = url.pathname.split("/");
    if (first === "watch") candidate = url.searchParams.get("v");
    else if (first === "shorts" || first === "embed" || first === "live") candidate = second;
  }
  return candidate && ID.test(candidate) ? candidate : null;
}

/** The privacy-enhanced player: controls shown, related videos from the same channel only. */
export function privacyPlayerUrl(id: string, autoplay = false): string {
  return `https://www.youtube-nocookie.com/embed/${id}?rel=0&controls=1${autoplay ? "&autoplay=1" : ""}`;
}
