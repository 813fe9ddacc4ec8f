import { Form } from "react-router";

interface Props {
  id: string;
  placeholder?: string;
  defaultValue?: string;
  autoFocus?: boolean;
}

/** A GET form to /search: works as a plain form without JavaScript. */
export function SearchForm({ id, placeholder = "Search", defaultValue, autoFocus }: Props) {
  return (
    <Form
      method="get"
      action="/search"
      role="search"
      className="flex gap-2"
      // A search opened from a popover (header box, mobile menu) closes it so the results show.
      onSubmit={(event) => event.currentTarget.closest<HTMLElement>("[popover]")?.hidePopover()}
    >
      <label htmlFor={id} className="sr-only">
        Search articles
      </label>
      <input
        id={id}
        type="search"
        name="q"
        placeholder={placeholder}
        defaultValue={defaultValue}
        // Focus moves into the box that the reader has just opened.
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus={autoFocus}
        className="min-w-0 flex-1 rounded border border-slate-400 bg-white px-3 py-2 text-slate-900"
      />
      <button
        type="submit"
        className="rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
      >
        Search
      </button>
    </Form>
  );
}
