// A process that takes a session folder's owner lock (storage/ownerLock.ts), for the lock
// tests: `hold` keeps it with a heartbeat until killed; `race` waits until a given instant,
// tries once, says whether it got it, and stays alive a while (a live holder, as a
// language server would be, so a slower racer cannot take it over from a dead one).
//   node --import tsx test/integration/support/lockHolder.ts <dir> hold|race [goAtMs]
import { OwnerLock, HEARTBEAT_MS } from '../../../server/capture/storage/ownerLock';

const [dir, mode, goAt] = process.argv.slice(2) as [string, string, string | undefined];
if (mode === 'hold') {
  const lock = OwnerLock.acquire(dir);
  process.stdout.write(lock === null ? 'refused\n' : `locked ${lock.token}\n`);
  if (lock !== null) setInterval(() => lock.heartbeat(), HEARTBEAT_MS);
} else {
  while (Date.now() < Number(goAt)) {
    // spin: every racer tries within the same millisecond or two
  }
  const lock = OwnerLock.acquire(dir);
  process.stdout.write(lock === null ? 'refused\n' : `locked ${lock.token}\n`);
  setTimeout(() => undefined, 3000);
}
