/** A named unit of visible progress; the CLI decides how to show it (listr2, plain lines, nothing). */
export interface Phase {
  title: string;
  run(update: (detail: string) => void): Promise<void>;
}

export type PhaseRunner = (phases: readonly Phase[]) => Promise<void>;

/** Runs phases one after another with no display; the default outside the CLI (tests, library use). */
export const runPhasesQuietly: PhaseRunner = async (phases) => {
  for (const phase of phases) await phase.run(() => undefined);
};
