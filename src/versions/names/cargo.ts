/**
 * Crate names are matched without regard to case by crates.io and its index, whose files are named by
 * the lower-cased name; the name as published (the index entry's `name`) is the one kept and answered.
 */
export function crateIndexName(name: string): string {
  return name.toLowerCase();
}
