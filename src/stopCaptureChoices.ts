// Which captures Stop Capture offers: those this window captures, then, marked and apart,
// those another window captures (stopped only there), so a pick never ends in an error, and
// what is said when one of those is picked names the session by its title. Free of the VS
// Code API (unit-tested).
import type { SessionInfo } from '../server/protocol';

export const isCapturing = (s: SessionInfo): boolean => s.status === 'running' || s.status === 'starting';

/** Live, but captured by another window's language server: shown read-only here. */
export const capturedElsewhere = (s: SessionInfo): boolean => isCapturing(s) && s.access?.readOnly === true;

export interface StopCaptureChoices {
  /** Captured in this window: Stop Capture stops these. */
  readonly here: readonly SessionInfo[];
  /** Captured in another window: listed so the user sees them, never stopped from here. */
  readonly elsewhere: readonly SessionInfo[];
}

export function stopCaptureChoices(sessions: readonly SessionInfo[]): StopCaptureChoices {
  const live = sessions.filter(isCapturing);
  return { here: live.filter((s) => !capturedElsewhere(s)), elsewhere: live.filter(capturedElsewhere) };
}

export const ELSEWHERE_MARK = 'captured in another window';

/** What is said when the user asks to stop a capture of another window. */
export function capturedElsewhereMessage(s: Pick<SessionInfo, 'title'>): string {
  return `Stage Lens: ${s.title} is ${ELSEWHERE_MARK}: stop it there.`;
}
