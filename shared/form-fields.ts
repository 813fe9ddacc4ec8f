/** Names of the fields that the forms' pages render and the server reads, besides a form's own. */

/** A hidden field that people never see or fill; software that fills every field does. */
export const HONEYPOT_FIELD = "website";

/** The contact form's signed time (server/forms/form-token.ts). */
export const FORM_TOKEN_FIELD = "form_token";
