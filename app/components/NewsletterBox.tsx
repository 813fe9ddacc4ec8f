/** The newsletter signup box. The address field is required and of type email, as the spec says. */
export function NewsletterBox() {
  return (
    <section
      aria-labelledby="newsletter-heading"
      className="rounded-lg bg-brand-dark p-5 text-white"
    >
      <h2 id="newsletter-heading" className="text-lg font-bold">
        Newsletter
      </h2>
      <p className="mt-1 text-sm">The day&apos;s San Diego stories in your inbox every morning.</p>
      <form method="post" action="/?index" className="mt-3 flex flex-col gap-2">
        <label htmlFor="newsletter-email" className="text-sm">
          Email address
        </label>
        <input
          id="newsletter-email"
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          className="rounded bg-white px-3 py-2 text-slate-900"
        />
        <button type="submit" className="rounded bg-white px-3 py-2 font-semibold text-brand-dark">
          Subscribe
        </button>
      </form>
    </section>
  );
}
