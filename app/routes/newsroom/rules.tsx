import { data, redirect, useLocation } from "react-router";
import { readForm } from "../../../server/forms/submission";
import { actionOf, typedText } from "../../../server/newsroom/form-input";
import { ruleAction } from "../../../server/newsroom/forms";
import { listBlockRules } from "../../../server/newsroom/block-rules";
import { BLOCK_FIELD_LABELS, BLOCK_FIELDS, MAX_PATTERN_LENGTH } from "../../../shared/newsroom";
import {
  addBlockRule,
  applyBlockRule,
  removeBlockRule,
} from "../../../server/newsroom/block-rule-actions";
import { listFeeds } from "../../../server/news/repository";
import { requireStaff, requireStaffAction } from "../../../server/staff/guard";
import {
  BUTTON,
  DANGER_BUTTON,
  FIELD,
  Field,
  NewsroomNotice,
  PRIMARY_BUTTON,
} from "../../components/NewsroomNotice";
import { NewsroomForm, Panel } from "./layout";
import type { Route } from "./+types/rules";
import { doneMessage, newsroomMeta } from "../../lib/newsroom-meta";

export const meta: Route.MetaFunction = newsroomMeta("Block rules");

const DONE = {
  add: "The rule is added: from the next ingest pass, items it matches are kept out.",
  remove: "The rule is removed.",
  apply: "The stories on the site that the rule matches are down.",
} as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const [rules, feeds] = await Promise.all([listBlockRules(context.db), listFeeds(context.db)]);
  const url = new URL(request.url);
  const count = Number(url.searchParams.get("n"));
  const done = doneMessage(request, DONE);
  return {
    rules,
    feeds: feeds.map((f) => ({ id: f.id, label: f.title ? `${f.title} (${f.url})` : f.url })),
    done:
      done === DONE.apply && Number.isInteger(count) && count > 0
        ? `${count} ${count === 1 ? "story" : "stories"} matching the rule ${count === 1 ? "is" : "are"} down.`
        : done,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const session = await requireStaffAction(request, context, form);
  const rule = actionOf(ruleAction, form);
  let result;
  if (rule.intent === "add") {
    result = await addBlockRule(context, session.member, {
      feedId: rule.feed,
      field: rule.field,
      pattern: rule.pattern,
    });
  } else if (rule.intent === "remove") {
    result = await removeBlockRule(context, session.member, rule.rule);
  } else {
    result = await applyBlockRule(context, session.member, rule.rule);
  }
  if (!result.ok) {
    return data({ error: result.error, pattern: typedText(form, "pattern") }, { status: 400 });
  }
  const count = /^(\d+) /.exec(result.message)?.[1];
  throw redirect(`/newsroom/rules?done=${rule.intent}${count ? `&n=${count}` : ""}`, 303);
}

export default function Rules({ loaderData, actionData }: Route.ComponentProps) {
  const { rules, feeds, done } = loaderData;
  const { key } = useLocation();
  const feedLabel = (id: number | null) =>
    id === null ? "Every feed" : (feeds.find((f) => f.id === id)?.label ?? `Feed ${id}`);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Block rules</h1>
      <p className="text-slate-700">
        Feed items a rule matches are kept out at ingest. Write words or a phrase; a <code>*</code>{" "}
        stands for any run of characters. Matching ignores case and looks at whole words:{" "}
        <code>casino</code> matches “Casino opens” but not “casinos”, <code>casino*</code> matches
        both, and <code>/sponsored/</code> matches links with that folder.
      </p>
      <NewsroomNotice done={done} error={actionData?.error} />

      <Panel id="add-heading" title="Add a rule" boxed>
        {/* Drawn anew after each change (a new location key), so an added rule's words are not
            left in the box; a refused one keeps them. */}
        <NewsroomForm intent="add" key={key} className="mt-3 flex flex-wrap items-end gap-3">
          <Field
            label="Words or pattern"
            labelClassName="flex min-w-0 flex-1 basis-60 flex-col gap-1 font-semibold"
            type="text"
            name="pattern"
            required
            maxLength={MAX_PATTERN_LENGTH}
            defaultValue={actionData?.pattern ?? ""}
          />
          <Field
            label="Matched in"
            name="field"
            defaultValue="title"
            options={BLOCK_FIELDS.map((f) => [f, BLOCK_FIELD_LABELS[f]])}
          />
          <Field
            label="Feed"
            labelClassName="flex max-w-full min-w-0 flex-col gap-1 font-semibold"
            name="feed"
            defaultValue=""
            className={`${FIELD} max-w-full`}
            options={[["", "Every feed"], ...feeds.map((f) => [f.id, f.label] as const)]}
          />
          <button type="submit" className={PRIMARY_BUTTON}>
            Add the rule
          </button>
        </NewsroomForm>
      </Panel>

      <Panel id="rules-heading" title="Rules in force">
        {rules.length === 0 ? (
          <p className="mt-2">No rule yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200 rounded ring-1 ring-slate-200">
            {rules.map((rule) => (
              <li key={rule.id} className="flex flex-col gap-2 p-3">
                <p>
                  <code className="font-semibold break-words">{rule.pattern}</code>
                  <span className="block text-sm break-all text-slate-700">
                    {BLOCK_FIELD_LABELS[rule.field]} · {feedLabel(rule.feedId)}
                  </span>
                </p>
                <NewsroomForm className="flex flex-wrap gap-2">
                  <input type="hidden" name="rule" value={rule.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="apply"
                    className={DANGER_BUTTON}
                    aria-label={`Take down stored stories it matches: ${rule.pattern}`}
                  >
                    Take down stored stories it matches
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="remove"
                    className={BUTTON}
                    aria-label={`Remove: ${rule.pattern}`}
                  >
                    Remove
                  </button>
                </NewsroomForm>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
