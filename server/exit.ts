/**
 * What `read` returns, or, when it throws the `expected` error (a bad setting, a bad content file),
 * the end of the process with exit code 1 and that error's one line on stderr.
 */
export function orExit<T>(read: () => T, expected: abstract new (...args: never[]) => Error): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof expected) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
