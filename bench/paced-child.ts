import { runPacedJob, type PacedJob } from './paced.js';

/** The paced load generator's process (bench/paced.ts): one job from the parent, its result back, then gone. */
process.once('message', (job: PacedJob) => {
  void runPacedJob(job).then((result) => {
    process.send!(result, () => process.exit(0));
  });
});
