// The real capture sources behind the registry's factory interface.
import { LaunchSource } from './launchSource';
import { LaunchWithMetrics } from './launchWithMetrics';
import { TailSource } from './tailSource';
import { ImportSource } from './importSource';
import { ScrapeCaptureSource } from './scrapeCapture';
import { LAUNCH_STARTUP_GRACE, type StartupGrace } from './scrapeStartup';
import { attachPlan } from './attachPlan';
import { AttachedProcess } from './attachedProcess';
import { listServingProcesses } from './servingProcesses';
import type { SourceFactories } from './sessionRegistry';
import type { CaptureSource } from './source';
import type { ImportProgress } from '../protocol';
import { Throttle } from './throttle';

/**
 * `launchStartupGrace`: how long a launched server's /metrics may refuse connections while it
 * starts before that is an error (scrapeStartup.ts); tests shorten it.
 */
export function realSourceFactories(
  onImportProgress: (progress: ImportProgress) => void,
  launchStartupGrace: StartupGrace = LAUNCH_STARTUP_GRACE,
): SourceFactories {
  return {
    launch: (p, session) =>
      new LaunchWithMetrics(
        new LaunchSource({ argv: p.argv, cwd: p.cwd, ...(p.env === undefined ? {} : { env: p.env }) }),
        p.metricsUrl === undefined
          ? null
          : new ScrapeCaptureSource(p.metricsUrl, undefined, session, launchStartupGrace),
      ),
    tail: (p) => new TailSource({ path: p.path, fromStart: p.fromStart }),
    scrape: (p, session) => new ScrapeCaptureSource(p.url, p.intervalMs, session),
    importFile: (p, session) => {
      let latest: ImportProgress | null = null;
      const throttle = new Throttle(250, () => {
        if (latest !== null) onImportProgress(latest);
      });
      const sessionId = session.id;
      return new ImportSource([...(p.earlier ?? []), p.path], (progress, done) => {
        latest = { sessionId, bytesRead: progress.bytesRead, totalBytes: progress.size, done };
        if (done) {
          throttle.dispose();
          onImportProgress(latest);
        } else throttle.trigger();
      });
    },
    attach: (p, session) => {
      const proc = listServingProcesses().find((x) => x.pid === p.pid);
      if (proc === undefined)
        throw new Error(`no vLLM-Omni server with pid ${p.pid} is running (or it is not readable from /proc)`);
      const plan = attachPlan(proc);
      const sources: CaptureSource[] = plan.logFiles.map((file) => new TailSource({ path: file, fromStart: true }));
      if (plan.metricsUrl !== null) sources.push(new ScrapeCaptureSource(plan.metricsUrl, undefined, session));
      const planNote = plan.explanation !== '' && plan.logFiles.length === 0 ? plan.explanation : null;
      if (plan.explanation !== '') session.setLastError(planNote);
      if (proc.deployConfig !== null) session.setDeployConfig(proc.deployConfig);
      const readers = [...sources];
      // Once the process is gone its scrape's "connection refused" is not the news: its exit is.
      const stopReaders = async (): Promise<void> => {
        await Promise.all(readers.map((s) => s.stop()));
        session.setLastError(planNote);
      };
      return [...sources, new AttachedProcess(p.pid, stopReaders)];
    },
  };
}
