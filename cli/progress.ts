/** "[#########-----------] 9/20 feeds": a bar `width` characters wide. */
export function progressBar(done: number, total: number, width = 24): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} feeds`;
}

/**
 * Lines for each finished feed, and in a terminal a live bar under them that redraws in place.
 * Piped to a file or another program, only the plain lines are written.
 */
export function progressReporter(total: number, out: NodeJS.WriteStream = process.stdout) {
  let done = 0;
  const live = Boolean(out.isTTY);
  const drawBar = () => out.write(`\r\x1b[2K${progressBar(done, total)}`);
  if (live) drawBar();
  return {
    line(text: string) {
      done++;
      if (live) out.write(`\r\x1b[2K${text}\n`);
      else out.write(`${text}\n`);
      if (live) drawBar();
    },
    finish() {
      if (live) out.write("\r\x1b[2K");
    },
  };
}
