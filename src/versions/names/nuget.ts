/** NuGet package ids are case-insensitive: the lower-cased id is the key (as the registration URLs use it). */
export function normalizeNugetId(id: string): string {
  return id.toLowerCase();
}
