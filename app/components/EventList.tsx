import { Link } from "react-router";
import type { EventCategory, ListedEvent } from "../../server/content/load";
import { sanDiegoFormat } from "../../shared/san-diego-time";

/** Where readers send an event: the contact form, with its category chosen. */
const SUBMIT_EVENT_PATH = "/contact-us?category=event";

// Events happen in San Diego, so their dates are San Diego's whatever the server's or reader's zone.
const fullDate = sanDiegoFormat({
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
});
const tileMonth = sanDiegoFormat({ month: "short" });
const tileDay = sanDiegoFormat({ day: "numeric" });

/** "Friday, December 18, 2026". */
function formatEventDate(iso: string): string {
  return fullDate.format(new Date(iso));
}

const CARD = "rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200";

export function FeaturedEventList({ events }: { events: readonly ListedEvent[] }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {events.map((event) => {
        const start = new Date(event.date);
        return (
          <li key={event.title} className={`flex gap-4 ${CARD}`}>
            <div
              aria-hidden="true"
              className="flex h-14 w-14 shrink-0 flex-col sm:h-16 sm:w-16 items-center justify-center rounded bg-brand text-white"
            >
              <span className="text-xs font-semibold uppercase">{tileMonth.format(start)}</span>
              <span className="text-2xl leading-none font-bold">{tileDay.format(start)}</span>
            </div>
            <div className="min-w-0">
              <h3 className="font-bold">{event.title}</h3>
              <p className="mt-1 text-sm font-semibold text-slate-800">
                <time dateTime={event.date}>{formatEventDate(event.date)}</time>
              </p>
              <p className="text-sm text-slate-700">{event.time}</p>
              <p className="text-sm text-slate-700">{event.place}</p>
              <p className="mt-2 text-sm">{event.description}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The kinds of events the listings cover. No page lists the events of one kind, so they are drawn
 * as plain text on the page, not as cards a reader would take for links.
 */
export function EventCategoryList({ categories }: { categories: readonly EventCategory[] }) {
  return (
    <ul className="grid gap-x-8 gap-y-5 sm:grid-cols-2 lg:grid-cols-3">
      {categories.map((category) => (
        <li key={category.title} className="border-l-2 border-slate-300 pl-4">
          <h3 className="font-bold">{category.title}</h3>
          <p className="mt-1 text-sm text-slate-700">{category.description}</p>
        </li>
      ))}
    </ul>
  );
}

/** The call to action that sends an organiser to the contact form. */
export function SubmitEventLink() {
  return (
    <Link
      to={SUBMIT_EVENT_PATH}
      className="inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
    >
      Submit Event
    </Link>
  );
}
