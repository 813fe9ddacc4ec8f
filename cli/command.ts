import { parseArgs } from "node:util";

interface CommandOption {
  type: "string" | "boolean";
  short?: string;
  description: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, CommandOption>;
  allowPositionals?: boolean;
  run(args: {
    values: Record<string, string | boolean | undefined>;
    positionals: string[];
  }): Promise<number>;
}

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export function parseCommandArgs(command: Command, argv: string[]) {
  try {
    const parsed = parseArgs({
      args: argv,
      options: {
        ...Object.fromEntries(
          Object.entries(command.options).map(([name, { type, short }]) => [
            name,
            short ? { type, short } : { type },
          ]),
        ),
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    return parsed as {
      values: Record<string, string | boolean | undefined>;
      positionals: string[];
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
