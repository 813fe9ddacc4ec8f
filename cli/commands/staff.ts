import { randomBytes } from "node:crypto";
import { text } from "node:stream/consumers";
import {
  addStaff,
  changeRole,
  isStaffRole,
  listStaff,
  removeStaff,
  resetPassword,
  StaffError,
} from "../../server/staff/accounts";
import { UsageError, type Command } from "../command";
import { withDatabase } from "../database";
import { formatTable } from "../table";

const USAGE = `news staff add <email> [--role editor|admin] [--password-stdin]
       news staff list
       news staff role <email> --role editor|admin
       news staff remove <email>
       news staff reset <email> [--password-stdin]`;

/** 20 random characters from a 64-letter alphabet: 120 bits, typed once and kept in a manager. */
function generatedPassword(): string {
  return randomBytes(15).toString("base64url");
}

async function passwordFrom(values: Record<string, string | boolean | undefined>) {
  if (!values["password-stdin"]) return { password: generatedPassword(), generated: true };
  const [first = ""] = (await text(process.stdin)).split(/\r?\n/);
  return { password: first, generated: false };
}

export const staffCommand: Command = {
  name: "staff",
  summary:
    "Manage the staff's newsroom accounts (admins can also manage them at /newsroom/staff): add (a password is made and shown once, or read with --password-stdin), list, change a role, remove, reset a password (which ends the account's sessions). The last admin is never removed or made an editor.",
  usage: USAGE,
  allowPositionals: true,
  options: {
    role: {
      type: "string",
      description: "editor (acts on content, the default for add) or admin; required by role",
    },
    "password-stdin": {
      type: "boolean",
      description: "Read the password from the first line of standard input instead of making one",
    },
  },
  async run({ values, positionals }) {
    const [verb, email, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`Unexpected: ${rest.join(" ")}`);
    if (verb !== "list" && (verb === undefined || email === undefined)) {
      throw new UsageError("Say what to do and, but for list, whose account.");
    }
    const role = typeof values.role === "string" ? values.role : "editor";
    if (!isStaffRole(role)) throw new UsageError(`--role must be editor or admin, not ${role}`);
    if (verb === "role" && values.role === undefined) {
      throw new UsageError("Say which role: --role editor or --role admin.");
    }
    return withDatabase("`news staff`", async (database) => {
      try {
        switch (verb) {
          case "add": {
            const { password, generated } = await passwordFrom(values);
            const member = await addStaff(database.db, { email: email ?? "", role, password });
            console.log(`Added ${member.email} (${member.role}).`);
            if (generated) console.log(`Password, shown this once: ${password}`);
            console.log("They sign in at /newsroom/sign-in.");
            return 0;
          }
          case "list": {
            const members = await listStaff(database.db);
            if (members.length === 0) {
              console.log("No staff accounts yet: add one with `news staff add <email>`.");
              return 0;
            }
            console.log(
              formatTable(
                ["email", "role", "added"],
                members.map((m) => [m.email, m.role, m.createdAt.toISOString().slice(0, 10)]),
              ),
            );
            return 0;
          }
          case "role": {
            const { member } = await changeRole(database.db, email ?? "", role);
            console.log(`${member.email} is now an ${member.role}, from their next page.`);
            return 0;
          }
          case "remove": {
            const removed = await removeStaff(database.db, email ?? "");
            console.log(
              removed ? `Removed ${email}; their sessions ended.` : `No account for ${email}.`,
            );
            return removed ? 0 : 1;
          }
          case "reset": {
            const { password, generated } = await passwordFrom(values);
            await resetPassword(database.db, email ?? "", password);
            console.log(`New password set for ${email}; their sessions ended.`);
            if (generated) console.log(`Password, shown this once: ${password}`);
            return 0;
          }
          default:
            throw new UsageError(`Unknown: ${verb}. Use add, list, role, remove or reset.`);
        }
      } catch (error) {
        if (error instanceof StaffError) {
          console.error(error.message);
          return 1;
        }
        throw error;
      }
    });
  },
};
