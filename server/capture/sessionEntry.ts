// One session of the storage folder as this language server knows it: its metadata (as
// last read or written), whether it is loaded (its requests in memory), who captures it
// (this window: `lock`; another live window: `foreignOwner`), and where its metadata
// may be written (the MetaStore its Session saves through).
import { withTitle } from './sessionTitle';
import type { SessionInfo } from '../protocol';
import { isCapturing } from './retention';
import type { MetaStore, Session } from './session';
import type { SessionFiles, SessionMeta } from './sessionFiles';
import type { SessionFollower } from './sessionFollower';
import { OwnerLock } from './storage/ownerLock';
import { inputDamageInfo } from './storage/storedMeta';
import type { Throttle } from './throttle';

/** Another window that captures the session; pid null when its lock is being written. */
export interface ForeignOwner {
  readonly pid: number | null;
}

export class SessionEntry implements MetaStore {
  /** This window captures the session and writes its files. */
  lock: OwnerLock | null = null;
  /** Another live window captures it: read-only here. */
  foreignOwner: ForeignOwner | null = null;
  session: Session | null = null;
  opening: Promise<Session> | null = null;
  follower: SessionFollower | null = null;
  /** A deploy config matched in this window to a session it may not write. */
  localDeployConfig: string | null | undefined = undefined;
  /** Why the last open failed, with the metadata stamp it failed at (not retried until the files change). */
  openFailure: { readonly stamp: string | null; readonly message: string } | null = null;
  throttle: Throttle | null = null;
  /** A takeover of this session is under way. */
  takingOver: Promise<void> | null = null;

  constructor(
    readonly files: SessionFiles,
    public meta: SessionMeta,
    /** session.json's stamp when `meta` was read or written (SessionFiles.metaStamp). */
    public stamp: string | null,
    private readonly onWriteError: (err: unknown) => void,
  ) {}

  get id(): string {
    return this.meta.info.id;
  }

  get readOnly(): boolean {
    return this.lock === null && this.foreignOwner !== null;
  }

  info(): SessionInfo {
    const base = this.session?.info ?? withTitle(this.meta, { ...this.meta.info, ...inputDamageInfo(this.meta) });
    const deployConfig = this.localDeployConfig !== undefined ? this.localDeployConfig : base.deployConfig;
    return {
      ...base,
      deployConfig,
      access: {
        readOnly: this.readOnly,
        ownerPid: this.lock !== null ? process.pid : (this.foreignOwner?.pid ?? null),
        loaded: this.session !== null,
      },
    };
  }

  /**
   * MetaStore: written when this window captures the session; when nobody does, under a
   * short-lived lock; never when another window captures it (a deploy-config match then
   * stays in this window).
   */
  save(meta: SessionMeta): void {
    this.meta = meta;
    if (this.lock !== null) return this.write(meta);
    if (this.foreignOwner !== null || isCapturing(meta.info)) {
      this.localDeployConfig = meta.info.deployConfig;
      return;
    }
    let lock: OwnerLock | null = null;
    try {
      lock = OwnerLock.acquire(this.files.dir);
    } catch (err) {
      this.onWriteError(err);
    }
    if (lock === null) {
      this.localDeployConfig = meta.info.deployConfig;
      return;
    }
    try {
      this.write(meta);
      this.localDeployConfig = undefined;
    } finally {
      lock.release();
    }
  }

  private write(meta: SessionMeta): void {
    try {
      this.files.writeMeta(meta);
      this.stamp = this.files.metaStamp();
    } catch (err) {
      this.onWriteError(err);
    }
  }

  /** Stops following and forgets the analysis (the session was deleted or is being dropped). */
  async dispose(): Promise<void> {
    await this.follower?.stop();
    this.follower = null;
    this.session?.dispose();
    this.throttle?.dispose();
  }
}
