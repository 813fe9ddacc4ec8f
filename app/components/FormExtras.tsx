import { HONEYPOT_FIELD } from "../../shared/form-fields";
import { useHydrated } from "../lib/use-hydrated";

/**
 * A field people never see or reach (hidden from sight, screen readers and the Tab key); the server
 * ignores a submission that fills it. Named like a field bots love to fill.
 */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** Present once JavaScript runs: asks the server to answer with data instead of a redirect. */
export function InlineAnswerField() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name="_inline" value="1" /> : null;
}
