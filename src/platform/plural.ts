/** `plural(1, 'article')` = "1 article", `plural(2, 'article')` = "2 articles"; irregular plurals as the third argument. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The word alone, for sentences that do not show the count ("your book", "your books"). */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
