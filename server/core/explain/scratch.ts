// Typed arrays a query reuses from one answer to the next instead of allocating a few MB
// of them per answer at 100k requests: large allocations are what sets off the
// collector's full pauses, which then land in whichever query is running. A query takes
// what it needs when it starts, under its own names, and hands none of it out: its answer
// is plain numbers and arrays it builds. Queries run one at a time (one thread).

const pool = new Map<string, Float64Array | Int32Array | Uint8Array>();

function take<T extends Float64Array | Int32Array | Uint8Array>(name: string, n: number, make: (n: number) => T): T {
  let buffer = pool.get(name) as T | undefined;
  if (buffer === undefined || buffer.length < n) {
    buffer = make(Math.max(n, Math.ceil((buffer?.length ?? 0) * 1.5), 1024));
    pool.set(name, buffer);
  }
  return buffer.subarray(0, n) as T;
}

/** A Float64Array of n (contents left from the last use). */
export const scratchFloat64 = (name: string, n: number): Float64Array => take(name, n, (m) => new Float64Array(m));
/** An Int32Array of n (contents left from the last use). */
export const scratchInt32 = (name: string, n: number): Int32Array => take(name, n, (m) => new Int32Array(m));
/** A Uint8Array of n (contents left from the last use). */
export const scratchUint8 = (name: string, n: number): Uint8Array => take(name, n, (m) => new Uint8Array(m));
