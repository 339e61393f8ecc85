/** The success envelope of api-conventions.md. */
export function ok<T>(data: T): { successful: true; data: T } {
  return { successful: true, data };
}
