/** A count as a badge shows it: nothing for 0, at most "99+" (ui.md badges). */
export const badgeText = (n: number | undefined): string | undefined => (!n ? undefined : n > 99 ? '99+' : String(n));
