import type { FaqItem, FaqTopic } from "../../server/content/load";
import { LinkedText } from "./LinkedText";

/** Every details element shares this name, so the browser keeps at most one answer open. */
const GROUP = "faq";

function FaqEntry({ item }: { item: FaqItem }) {
  return (
    <details name={GROUP} className="group border-b border-slate-200 last:border-b-0">
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 px-4 py-3 font-semibold hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand md:px-5 [&::-webkit-details-marker]:hidden">
        <span>{item.question}</span>
        <span
          aria-hidden="true"
          className="mt-0.5 shrink-0 text-xl leading-none text-brand transition-transform group-open:rotate-45"
        >
          +
        </span>
      </summary>
      <div className="space-y-3 px-4 pb-4 text-slate-800 md:px-5">
        {item.answer.split("\n\n").map((paragraph) => (
          <p key={paragraph}>
            <LinkedText text={paragraph} />
          </p>
        ))}
      </div>
    </details>
  );
}

/** The topics' names, linking to their sections further down. */
export function FaqContents({ topics }: { topics: readonly FaqTopic[] }) {
  return (
    <nav
      aria-label="FAQ topics"
      className="mb-8 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <p className="font-semibold">Topics</p>
      <ul className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-4">
        {topics.map((topic) => (
          <li key={topic.id}>
            <a href={`#${topic.id}`} className="text-brand underline underline-offset-2">
              {topic.title}
            </a>{" "}
            <span className="text-sm text-slate-600">({topic.items.length})</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** All questions, one section per topic, each answer folded into a native details element. */
export function FaqList({ topics }: { topics: readonly FaqTopic[] }) {
  return (
    <>
      {topics.map((topic) => (
        <section key={topic.id} aria-labelledby={topic.id} className="mb-10">
          <h2 id={topic.id} className="mb-3 scroll-mt-4 text-2xl font-bold">
            {topic.title}
          </h2>
          <div className="overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
            {topic.items.map((item) => (
              <FaqEntry key={item.question} item={item} />
            ))}
          </div>
        </section>
      ))}
    </>
  );
}
