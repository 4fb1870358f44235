/**
 * Go module paths are case-sensitive, but module proxies and the module cache must work on
 * case-insensitive file systems, so they write each upper-case letter as `!` and its lower-case form
 * (golang.org/x/mod/module EscapePath): `github.com/BurntSushi/toml` <-> `github.com/!burnt!sushi/toml`.
 * A module path cannot hold `!`, so a path without one is its own unescaped form.
 */
export function escapeModulePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** The module path an escaped path names; null when a `!` does not escape a lower-case letter. */
export function unescapeModulePath(path: string): string | null {
  if (!path.includes('!')) return path;
  if (/![^a-z]|!$/.test(path)) return null;
  return path.replace(/!([a-z])/g, (_m, ch: string) => ch.toUpperCase());
}
