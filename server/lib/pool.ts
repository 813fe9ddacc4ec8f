/**
 * Runs tasks concurrently under a global limit and a per-host limit, so a pass is fast
 * without hammering any one publisher.
 */
export interface PoolLimits {
  global: number;
  perHost: number;
}

export async function runPool<T, R>(
  items: readonly T[],
  hostOf: (item: T) => string,
  limits: PoolLimits,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const waiting = items.map((item, index) => ({ item, index, host: hostOf(item) }));
  const activeByHost = new Map<string, number>();
  let active = 0;

  return new Promise<R[]>((resolve, reject) => {
    const startNext = () => {
      if (waiting.length === 0 && active === 0) {
        resolve(results);
        return;
      }
      for (let i = 0; i < waiting.length && active < limits.global;) {
        const next = waiting[i];
        if (!next || (activeByHost.get(next.host) ?? 0) >= limits.perHost) {
          i++;
          continue;
        }
        waiting.splice(i, 1);
        active++;
        activeByHost.set(next.host, (activeByHost.get(next.host) ?? 0) + 1);
        work(next.item).then((result) => {
          results[next.index] = result;
          active--;
          activeByHost.set(next.host, (activeByHost.get(next.host) ?? 1) - 1);
          startNext();
        }, reject);
      }
    };
    startNext();
  });
}
