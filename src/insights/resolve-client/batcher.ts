/**
 * Lookups issued in the same macrotask, answered by one query: `load` queues a key, and the first load of a
 * batch schedules the run of every key queued by then (a key asked twice shares the answer).
 */
export class Batcher<K, V> {
  private pending = new Map<string, { key: K; resolve: (v: V) => void; reject: (e: unknown) => void }[]>();
  private scheduled = false;
  private readonly keyOf: (k: K) => string;
  private readonly run: (keys: K[]) => Promise<Map<string, V>>;
  private readonly fallback: V;

  constructor(keyOf: (k: K) => string, run: (keys: K[]) => Promise<Map<string, V>>, fallback: V) {
    this.keyOf = keyOf;
    this.run = run;
    this.fallback = fallback;
  }

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      const k = this.keyOf(key);
      const list = this.pending.get(k) ?? [];
      list.push({ key, resolve, reject });
      this.pending.set(k, list);
      if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => void this.flush(), 0); // a macrotask: every chain of microtasks under way joins the batch
      }
    });
  }

  private async flush() {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    try {
      const got = await this.run([...batch.values()].map((l) => l[0]!.key));
      for (const [k, list] of batch) for (const w of list) w.resolve(got.get(k) ?? this.fallback);
    } catch (e) {
      for (const list of batch.values()) for (const w of list) w.reject(e);
    }
  }
}
