/**
 * Which open requirement Bundler resolves next (Bundler::Resolver#sort_dependencies, as Molinillo
 * calls it whenever an activation adds requirements): the open requirements sorted by
 *  1. the gem already activated first,
 *  2. the root gem first,
 *  3. amount constrained, memoised per gem on its first use: its candidates minus all its specs,
 *     or all - 1e6 when the gem has at most one spec (prereleases not counted, except for a
 *     prerelease root),
 *  4. candidate count (spec groups: two per usable version, a linux-only one included),
 * ties in their current order; the first one is taken.
 */
import { parseGemVersion } from '../versions/rubygems.ts';
import { type Candidate, type GemIndex, groupCount, type Req } from './rubygems-candidates.ts';

export class DependencyOrder {
  private readonly index: GemIndex;
  private readonly rootName: string;
  private readonly rootPre: boolean;
  private readonly constrained = new Map<string, number>();

  constructor(index: GemIndex, rootName: string, rootVersion: string) {
    this.index = index;
    this.rootName = rootName;
    this.rootPre = parseGemVersion(rootVersion)?.prerelease ?? false;
  }

  private async amountConstrained(r: Req): Promise<number> {
    let n = this.constrained.get(r.name);
    if (n === undefined) {
      const { specs } = await this.index.versionsOf(r.name);
      const preSpecified = r.name === this.rootName && this.rootPre;
      n =
        specs <= 1
          ? specs - 1_000_000
          : groupCount((await this.index.candidatesFor(r)).filter((c) => preSpecified || !c.v.prerelease)) - specs;
      this.constrained.set(r.name, n);
    }
    return n;
  }

  /** The open requirements in the order they are resolved, given the activations so far. */
  async sort(acts: ReadonlyMap<string, Candidate[]>, open: Req[]): Promise<Req[]> {
    const keyed = await Promise.all(
      open.map(async (r, i) => {
        const act = acts.has(r.name);
        const count = act ? 0 : groupCount(await this.index.candidatesFor(r));
        return { r, i, k: [act ? 0 : 1, r.name === this.rootName ? 0 : 1, await this.amountConstrained(r), count] };
      }),
    );
    keyed.sort((a, b) => {
      for (let j = 0; j < a.k.length; j++) if (a.k[j] !== b.k[j]) return a.k[j]! - b.k[j]!;
      return a.i - b.i;
    });
    return keyed.map((x) => x.r);
  }
}
