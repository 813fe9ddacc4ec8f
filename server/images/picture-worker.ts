/**
 * The picture maker's child process (server/images/picture-maker.ts forks it): reads what a
 * picture is and makes its copies with sharp, one job at a time, so that libvips' memory and any
 * crash on a hostile picture stay out of the web process. It exits when its parent disconnects.
 */
import type { MakerJob, MakerReply } from "./picture-maker";
import { inlinePictureMaker } from "./picture-maker";

const maker = inlinePictureMaker();
let turn: Promise<unknown> = Promise.resolve();

async function run(job: MakerJob): Promise<MakerReply> {
  try {
    switch (job.op) {
      case "inspect":
        return { id: job.id, ok: true, inspection: await maker.inspect(job.bytes) };
      case "variant":
        return { id: job.id, ok: true, bytes: await maker.variant(job.bytes, job.variant) };
      case "crop":
        return { id: job.id, ok: true, bytes: await maker.crop(job.bytes, job.crop) };
      case "clean":
        return { id: job.id, ok: true, bytes: await maker.clean(job.bytes) };
    }
  } catch (error) {
    return { id: job.id, ok: false, error: (error as Error).message };
  }
}

process.on("message", (job: MakerJob) => {
  turn = turn.then(async () => process.send?.(await run(job)));
});
process.on("disconnect", () => process.exit(0));
process.send?.({ ready: true });
