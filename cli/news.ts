import { UsageError, parseCommandArgs, type Command } from "./command";
import { backupCommand, restoreCommand } from "./commands/backup";
import { feedsCommand } from "./commands/feeds";
import { picturesCommand } from "./commands/pictures";
import { ingest } from "./commands/ingest";
import { messagesCommand } from "./commands/messages";
import { migrate } from "./commands/migrate";
import { newsletterCommand } from "./commands/newsletter";
import { parse } from "./commands/parse";
import { purgeCommand } from "./commands/purge";
import { resanitize } from "./commands/resanitize";
import { staffCommand } from "./commands/staff";
import { subscribersCommand } from "./commands/subscribers";

const COMMANDS: Command[] = [
  migrate,
  ingest,
  feedsCommand,
  picturesCommand,
  parse,
  subscribersCommand,
  newsletterCommand,
  messagesCommand,
  staffCommand,
  resanitize,
  purgeCommand,
  backupCommand,
  restoreCommand,
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "Usage: news <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Run `news <command> --help` for a command's options.",
    "Settings come from environment variables (see docs/configuration.md); DATABASE_URL selects PostgreSQL,",
    "otherwise the embedded database in DATA_DIR is used.",
  ].join("\n");
}

function commandHelp(command: Command): string {
  const lines = [`Usage: ${command.usage}`, "", command.summary];
  const options = Object.entries(command.options);
  if (options.length > 0) {
    lines.push("", "Options:");
    for (const [name, option] of options) {
      lines.push(`  --${name}${option.type === "string" ? " <value>" : ""}  ${option.description}`);
    }
  }
  lines.push("  --help  Show this help");
  return lines.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(mainHelp());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command: ${name}\n\n${mainHelp()}`);
    return 2;
  }
  try {
    const args = parseCommandArgs(command, rest);
    if (args.values.help) {
      console.log(commandHelp(command));
      return 0;
    }
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
