/**
 * The last routes and actions, sent with every error log so a report shows what led to it.
 * calls.md §9: at most 10 are kept.
 */
export const BREADCRUMB_MAX = 10;

const trail: string[] = [];

export function addBreadcrumb(entry: string): void {
  trail.push(entry.length > 500 ? `${entry.slice(0, 500)}…` : entry);
  if (trail.length > BREADCRUMB_MAX) trail.splice(0, trail.length - BREADCRUMB_MAX);
}

export function getBreadcrumbs(): string[] {
  return [...trail];
}

export function clearBreadcrumbs(): void {
  trail.length = 0;
}
