import { pollSummaries } from "../../../server/newsroom/inbox";
import { requireStaff } from "../../../server/staff/guard";
import type { Route } from "./+types/polls";
import { newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Poll results");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  return { polls: await pollSummaries(context.db, context.content.community.poll) };
}

const votes = (n: number) => `${n} ${n === 1 ? "vote" : "votes"}`;

export default function Polls({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold">Poll results</h1>
        <p className="mt-2 text-slate-700">
          Votes in the Community page's poll, one per browser, counted as readers cast them.
        </p>
      </div>
      {loaderData.polls.map((poll, index) => (
        <section
          key={poll.pollId}
          aria-labelledby={`poll-${index}`}
          className="rounded p-4 ring-1 ring-slate-200"
        >
          <h2 id={`poll-${index}`} className="text-xl font-bold break-words">
            {poll.question ?? `An earlier poll (${poll.pollId})`}
          </h2>
          <p className="text-sm text-slate-700">
            {index === 0 ? "On the Community page now" : "No longer asked"} ·{" "}
            {votes(poll.results.total)} in all
          </p>
          <table className="mt-3 w-full text-left">
            <caption className="sr-only">Votes per option: {poll.question ?? poll.pollId}</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-3">
                  Option
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Votes
                </th>
                <th scope="col" className="py-2 text-right">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {poll.results.tallies.map((t) => (
                <tr key={t.option} className="border-b border-slate-200">
                  <th scope="row" className="py-2 pr-3 font-normal break-words">
                    {t.option}
                  </th>
                  <td className="py-2 pr-3 text-right">{t.votes}</td>
                  <td className="py-2 text-right">{t.percent}%</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" className="py-2 pr-3">
                  Total
                </th>
                <td className="py-2 pr-3 text-right font-semibold">{poll.results.total}</td>
                <td className="py-2 text-right font-semibold">
                  {poll.results.total === 0 ? "0%" : "100%"}
                </td>
              </tr>
            </tfoot>
          </table>
        </section>
      ))}
    </div>
  );
}
