/**
 * A minute clock for cron triggers on this machine: `wrangler dev --test-scheduled` only runs a
 * `scheduled` handler when `/__scheduled?cron=...` is asked, so `npm start` asks it for the crons that
 * must run as they do when deployed (the insights change feeds, `* * * * *`), at the start of every
 * minute. `fire` is called once per minute with the cron string; a failing call is reported, never thrown.
 */
export interface Ticker {
  stop(): void;
}

export function minuteTicker(fire: (cron: string) => Promise<void>, cron = '* * * * *'): Ticker {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        void fire(cron).catch((err) => console.warn(`cron ${cron}: ${(err as Error).message}`));
        next();
      },
      60_000 - (Date.now() % 60_000),
    );
    timer.unref?.();
  };
  next();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** Asks a `wrangler dev --test-scheduled` worker at `base` to run its scheduled handler for `cron`. */
export async function triggerScheduled(base: string, cron: string): Promise<void> {
  const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent(cron).replaceAll('%20', '+')}`);
  await res.body?.cancel();
  if (!res.ok) throw new Error(`${base}/__scheduled answered ${res.status}`);
}
