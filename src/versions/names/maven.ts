/** Maven package names are `groupId:artifactId`, both non-empty and without spaces or further colons. */
export function isMavenName(name: string): boolean {
  return /^[^:\s]+:[^:\s]+$/.test(name);
}

/** `[groupId, artifactId]` of a Maven package name; null when it is not `group:artifact`. */
export function mavenCoordinates(name: string): [string, string] | null {
  if (!isMavenName(name)) return null;
  const i = name.indexOf(':');
  return [name.slice(0, i), name.slice(i + 1)];
}
