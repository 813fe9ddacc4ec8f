/** An invalid setting: the message names the variable, what it must be and what it was. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly expected: string,
    readonly received: string | undefined,
  ) {
    const got = received === undefined ? "" : ` (got ${JSON.stringify(received)})`;
    super(`Invalid configuration: ${variable} must be ${expected}${got}`);
    this.name = "ConfigError";
  }
}
