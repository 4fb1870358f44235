/**
 * NuGet target frameworks, enough to pick a package's dependency group for a .NET (5+) or .NET Core
 * target: a group's framework is read from its short (`net8.0`, `netstandard2.0`, `netcoreapp3.1`,
 * `net472`) or long (`.NETStandard2.0`, `.NETCoreApp3.1`, `.NETFramework4.7.2`, `net8.0-windows7.0`)
 * name; the empty name (or `any`) is the group for every framework. NuGet's FrameworkReducer.GetNearest:
 * among the compatible groups, the same family and highest version first: `net5+` (up to the target),
 * then `netcoreapp` (up to 3.1, or up to the target for a netcoreapp target), then `netstandard` (up to
 * 2.1, 2.0 for netcoreapp2.x), then the any-framework group. Platform-specific groups (`net8.0-windows`)
 * and .NET Framework groups never apply to a platform-neutral .NET Core target.
 */
export interface Framework {
  family: 'net' | 'netcoreapp' | 'netstandard' | 'netfx' | 'any' | 'other';
  version: number[];
  platform: string;
}

const num = (s: string) => s.split('.').filter(Boolean).map(Number);

export function parseFramework(text: string): Framework {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'any' || t === 'agnostic') return { family: 'any', version: [], platform: '' };
  const [base, platform = ''] = t.split('-', 2) as [string, string?];
  let m = /^\.?netstandard([\d.]+)$/.exec(base);
  if (m) return { family: 'netstandard', version: num(m[1]!), platform };
  m = /^\.?netcoreapp([\d.]+)$/.exec(base);
  if (m) {
    const v = num(m[1]!);
    return { family: v[0]! >= 5 ? 'net' : 'netcoreapp', version: v, platform };
  }
  m = /^\.netframework([\d.]+)$/.exec(base);
  if (m) return { family: 'netfx', version: num(m[1]!), platform };
  m = /^net(\d+\.\d+(?:\.\d+)*)$/.exec(base);
  if (m) return { family: Number(m[1]!.split('.')[0]) >= 5 ? 'net' : 'netfx', version: num(m[1]!), platform };
  m = /^net(\d{2,3})$/.exec(base);
  if (m) return { family: 'netfx', version: m[1]!.split('').map(Number), platform };
  return { family: 'other', version: [], platform };
}

const cmpV = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/** Preference of `group` for `target` (higher is nearer), or -1 when the group does not apply. */
function rank(target: Framework, g: Framework): number {
  if (g.family === 'any') return 0;
  if (g.platform && g.platform !== target.platform) return -1;
  const within = (max: number[]) => cmpV(g.version, max) <= 0;
  const score = (tier: number) => tier * 1e6 + g.version.reduce((s, x, i) => s + x * 100 ** (2 - i), 0);
  if (target.family === 'net') {
    if (g.family === 'net') return within(target.version) ? score(3) : -1;
    if (g.family === 'netcoreapp') return score(2);
    if (g.family === 'netstandard') return within([2, 1]) ? score(1) : -1;
    return -1;
  }
  if (target.family === 'netcoreapp') {
    if (g.family === 'netcoreapp') return within(target.version) ? score(2) : -1;
    if (g.family === 'netstandard') return within(cmpV(target.version, [3, 0]) >= 0 ? [2, 1] : [2, 0]) ? score(1) : -1;
    return -1;
  }
  if (target.family === g.family) return within(target.version) ? score(1) : -1;
  return -1;
}

/** The nearest of `groups` (framework names) for `target`, or null when none is compatible. */
export function nearestFramework(target: string, groups: readonly string[]): string | null {
  const t = parseFramework(target);
  let best: string | null = null;
  let bestRank = -1;
  for (const g of groups) {
    const r = rank(t, parseFramework(g));
    if (r > bestRank) [best, bestRank] = [g, r];
  }
  return best;
}
