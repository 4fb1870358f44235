/**
 * Polls `fn` until it yields a value (anything but `undefined` or `false`), every `intervalMs`, and
 * returns it; after `timeoutMs` it throws "timed out waiting for <what>", with `explain()`'s answer
 * appended when given. The one polling loop of the suites (queue, mail, task and delivery waits).
 */
export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  explain?: () => Promise<unknown>;
}

export async function waitFor<T>(
  what: string,
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  opts: WaitOptions = {},
): Promise<T> {
  const end = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end)
      throw new Error(
        `timed out waiting for ${what}${opts.explain ? `: ${JSON.stringify(await opts.explain())}` : ''}`,
      );
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}
