/** List views: modes, scopes, row heights and paging (domain.md §3, §6, §9). */

// domain.md §3: the code 3 is not used.
export const ViewMode = {
  List: 0,
  Calendar: 1,
  Timeline: 2,
  Gantt: 4,
  Map: 5,
  Hierarchy: 6,
  Card: 7,
  Kanban: 8,
  MobileGrid: 9,
} as const;
export type ViewMode = (typeof ViewMode)[keyof typeof ViewMode];

// domain.md §3 and §6: whose rows a view shows.
export const ViewScope = { ViewOwn: 1, ViewOwnDept: 2, ViewAll: 3 } as const;
export type ViewScope = (typeof ViewScope)[keyof typeof ViewScope];

// domain.md §9: grid row heights in pixels.
export const RowHeight = { Compact: 36, Common: 46, Medium: 68, Large: 90 } as const;
export type RowHeight = (typeof RowHeight)[keyof typeof RowHeight];

// domain.md §9: choices offered by the pager.
export const PAGE_SIZE_OPTIONS = [1, 5, 10, 20, 50, 100, 200, 500] as const;
export type PageSizeOption = (typeof PAGE_SIZE_OPTIONS)[number];

// domain.md §9, calls.md §9: a page size of -1 asks for every row.
export const PAGE_SIZE_ALL = -1;
