import { useRouteLoaderData } from "react-router";
import type { PublicEmbeds } from "../../server/config";

export type { PublicEmbeds };

const NONE: PublicEmbeds = {
  adScriptUrl: null,
  featuredVideoUrl: null,
  imageFeedUrl: null,
  holidayCalendarUrl: null,
  feedWallUrl: null,
  contactFormUrl: null,
};

/** The configured outside providers, as the root loader sent them. */
export function useEmbeds(): PublicEmbeds {
  const data = useRouteLoaderData<{ embeds: PublicEmbeds }>("root");
  return data?.embeds ?? NONE;
}
