/**
 * PyPI project names (PEP 503, "Normalized Names"): lower-cased, every run of `-`, `_` and `.` one `-`.
 * `Django`, `django_` and `DJANGO.` name the same project; the same rule compares extras (PEP 685).
 */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}
