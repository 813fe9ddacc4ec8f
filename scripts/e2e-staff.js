// The browser tests' staff accounts, made in each e2e site's database before it starts, by the same
// command an operator runs (`news staff add <email> --role <role> --password-stdin`).
import { spawnSync } from "node:child_process";

/** Sample accounts of a throwaway test database: never a real site's. */
export const E2E_STAFF = {
  editor: {
    email: "editor@e2e.example.org",
    password: "e2e editor password, tests only",
    role: "editor",
  },
  admin: {
    email: "chief@e2e.example.org",
    password: "e2e admin password, tests only",
    role: "admin",
  },
};

/**
 * Adds every account of E2E_STAFF to the database `env` names; false when one could not be added.
 *
 * @param {NodeJS.ProcessEnv} env
 * @returns {boolean}
 */
export function addE2eStaff(env) {
  return Object.values(E2E_STAFF).every(({ email, password, role }) => {
    const added = spawnSync(
      process.execPath,
      ["--import", "tsx", "cli/news.ts", "staff", "add", email, "--role", role, "--password-stdin"],
      { input: `${password}\n`, stdio: ["pipe", "ignore", "inherit"], env },
    );
    return added.status === 0;
  });
}
