/**
 * Talking to a test site as staff do, for tests of the newsroom over HTTP: plain requests that
 * do not follow redirects, form posts with the session cookie, and signing in for a cookie and
 * the form token a newsroom page carries.
 */
export function staffClient(options: { base: () => string; password: string }) {
  const get = (address: string, cookie?: string) =>
    fetch(`${options.base()}${address}`, {
      redirect: "manual",
      headers: cookie ? { Cookie: cookie } : {},
    });

  const post = (address: string, fields: Record<string, string>, cookie: string) =>
    fetch(`${options.base()}${address}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: new URLSearchParams(fields).toString(),
    });

  /** Signs in and reads the form token from `page`; throws when either fails. */
  async function signedIn(email: string, page: string): Promise<{ cookie: string; csrf: string }> {
    const response = await fetch(`${options.base()}/newsroom/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        email,
        password: options.password,
        next: "/newsroom",
      }).toString(),
    });
    if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
    const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const html = await (await get(page, cookie)).text();
    const csrf = /name="_csrf" value="([\w-]+)"/.exec(html)?.[1];
    if (!csrf) throw new Error(`no form token on ${page}`);
    return { cookie, csrf };
  }

  return { get, post, signedIn };
}
