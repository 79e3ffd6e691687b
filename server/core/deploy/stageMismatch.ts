// The answer when a session's stages are not a deploy config's (stageFit.ts decides), in the
// protocol (server/protocol.ts re-exports it): types only, so the webviews' build can see it.

/** A session whose stages are not a deploy config's: its numbers would land on another pipeline's stages. */
export interface DeployStageMismatch {
  readonly configStageIds: readonly number[];
  readonly sessionStageIds: readonly number[];
  /** One sentence for people: which stages (or pipeline) each has, and what showing the numbers there would mean. */
  readonly message: string;
}
