/** Display formats and the small value sets designers pick from (domain.md §3, §5, §9; calls.md §3). */

// domain.md §3, calls.md §3: year-month-day-hour-minute, year-month-day, year-month and hour-minute.
// The tokens follow the date formats of domain.md §9 (lower case, mm is month before the time part).
export const DATE_TIME_DISPLAY_FORMATS = ['yyyy-mm-dd hh:mm', 'yyyy-mm-dd', 'yyyy-mm', 'hh:mm'] as const;
export type DateTimeDisplayFormat = (typeof DATE_TIME_DISPLAY_FORMATS)[number];

// domain.md §3: the format used when a stored one is missing or unknown.
export const DEFAULT_DISPLAY_FORMAT: DateTimeDisplayFormat = 'yyyy-mm-dd hh:mm';

/**
 * Returns the display format to use for a date-time control. Schemas written by older designers may
 * carry other spellings or nothing at all, so the value is trimmed and compared without case; anything
 * still unknown falls back to year-month-day-hour-minute (domain.md §3).
 */
export function normalizeDisplayFormat(value: unknown): DateTimeDisplayFormat {
  if (typeof value !== 'string') return DEFAULT_DISPLAY_FORMAT;
  const wanted = value.trim().replace(/\s+/g, ' ').toLowerCase();
  return DATE_TIME_DISPLAY_FORMATS.find((format) => format === wanted) ?? DEFAULT_DISPLAY_FORMAT;
}

// domain.md §9: formats a date control may store or show.
export const DATE_FORMATS = ['yyyy-mm-dd', 'yyyy-mm', 'yyyy-mm-dd hh:mm', 'yyyy-mm-dd hh:mm:ss', 'hh:mm'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

// domain.md §9: province-city-town, province-city, province.
export const AREA_MODES = ['P-C-T', 'P-C', 'P'] as const;
export type AreaMode = (typeof AREA_MODES)[number];

// domain.md §9: when a sequence number starts again from 1.
export const SEQ_NO_RESET_MODES = ['none', 'year', 'month', 'day'] as const;
export type SeqNoResetMode = (typeof SEQ_NO_RESET_MODES)[number];

// domain.md §9: the parts a sequence number is built from.
export const SEQ_NO_STRUCTURE_PARTS = ['createdTime', 'increment', 'fixedValue', 'formControl'] as const;
export type SeqNoStructurePart = (typeof SEQ_NO_STRUCTURE_PARTS)[number];

// domain.md §9
export const ROLLUP_TYPES = ['sum', 'count', 'max', 'min', 'isNull', 'notNull'] as const;
export type RollupType = (typeof ROLLUP_TYPES)[number];

// domain.md §5: what a text box checks its content against (see validation/patterns.ts).
export const TEXT_MODES = ['Normal', 'Email', 'IdCard', 'Telephone'] as const;
export type TextMode = (typeof TEXT_MODES)[number];

// domain.md §5
export const FILTER_OPERATORS = [
  'Equal',
  'NotEqual',
  'Contains',
  'NotContains',
  'Contained',
  'NotContained',
  'IsBlank',
  'NotBlank',
  'In',
  'NotIn',
  'Between',
  'NotAbove',
  'NotBelow',
  'Above',
  'Below',
  'Dynamic',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

// domain.md §5: long text, attachments, users and the like cannot be sorted on.
export const SORTABLE_DATA_TYPES = ['ShortString', 'DateTime', 'Int', 'Bool', 'Decimal', 'Double'] as const;
export type SortableDataType = (typeof SORTABLE_DATA_TYPES)[number];

/** True when a column of this data type may be sorted (domain.md §5). */
export function isSortableDataType(dataType: string): dataType is SortableDataType {
  return (SORTABLE_DATA_TYPES as readonly string[]).includes(dataType);
}

// domain.md §5: why the designer refuses to add a control, or success.
export const CONTROL_ADD_VERIFY_RESULTS = [
  'success',
  'onlyOne',
  'upperLimit',
  'gridViewNoSupport',
  'tabNoSupport',
  'layoutNoSupport',
  'other',
] as const;
export type ControlAddVerifyResult = (typeof CONTROL_ADD_VERIFY_RESULTS)[number];

// domain.md §9: colours offered to style rules.
export const STYLE_PALETTE_SIZE = 20;
/** The palette itself (option colours, style rules): light to strong, each readable behind black text. */
export const STYLE_PALETTE: readonly string[] = [
  '#ffccc7', '#ffd8bf', '#ffe7ba', '#fff1b8', '#ffffb8', '#f4ffb8', '#d9f7be', '#b5f5ec', '#bae0ff', '#d6e4ff',
  '#efdbff', '#ffd6e7', '#ff7875', '#ff9c6e', '#ffc069', '#ffd666', '#95de64', '#5cdbd3', '#69b1ff', '#b37feb',
];

// domain.md §9: what a cell shows when it has no value.
export const EMPTY_VALUE_DISPLAY = '--';
