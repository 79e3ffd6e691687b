// A launched server together with the scrape of its /metrics, as one source of a session.
// The scrape starts once the process runs and stops when it ends: a command that cannot
// start reports why (the program it looked for), not "connection refused" from a /metrics
// endpoint that never existed, and an exit code is not overwritten by later scrape errors.
import type { LaunchSource } from './launchSource';
import type { CaptureListener, CaptureSource } from './source';

export class LaunchWithMetrics implements CaptureSource {
  readonly description: string;
  private scraping = false;

  constructor(
    private readonly launch: LaunchSource,
    private readonly scrape: CaptureSource | null,
  ) {
    this.description = launch.description;
  }

  start(listener: CaptureListener): void {
    this.launch.start({
      onData: (chunk, stream) => listener.onData(chunk, stream),
      onNotice: (message) => listener.onNotice(message),
      onStatus: (status, detail, exit) => {
        if (status === 'exited' || status === 'crashed' || status === 'error') void this.stopScrape();
        listener.onStatus(status, detail, exit);
        if (status === 'running' && this.scrape !== null && !this.scraping) {
          this.scraping = true;
          this.scrape.start(listener);
        }
      },
    });
  }

  private async stopScrape(): Promise<void> {
    if (!this.scraping || this.scrape === null) return;
    this.scraping = false;
    await this.scrape.stop();
  }

  async stop(): Promise<void> {
    await Promise.all([this.launch.stop(), this.stopScrape()]);
  }
}
