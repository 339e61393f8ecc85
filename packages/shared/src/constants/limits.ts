/** Length bounds, counts, time-outs and paging defaults (domain.md §5, §9; calls.md §4, §9). */

// ---- Lengths (domain.md §5) ----

// domain.md §5: app, group and form names.
export const NAME_LENGTH = { min: 2, max: 32 } as const;
// domain.md §5
export const TEXT_BOX_MAX_LENGTH = 200;
// domain.md §5
export const TEXT_AREA_MAX_LENGTH = 2000;
// domain.md §5
export const FORM_COMMENT_MAX_LENGTH = 2000;
// domain.md §5
export const SMS_CONTENT_MAX_LENGTH = 200;
// domain.md §5
export const TOOLTIP_MAX_LENGTH = 200;
// domain.md §5: for each of SMS and e-mail.
export const MAX_MESSAGE_RECIPIENTS = 5;
// domain.md §5: a mainland mobile number.
export const PHONE_LENGTH = 11;
// domain.md §5, calls.md §9: the current rule is 8 to 16; accounts created before it may have 6.
export const PASSWORD_LENGTH = { min: 8, max: 16 } as const;
export const LEGACY_PASSWORD_LENGTH = { min: 6, max: 16 } as const;
// domain.md §5
export const VERIFY_CODE_LENGTH = 6;

// ---- Counts (domain.md §5) ----

// domain.md §5: one import file.
export const IMPORT_LIMITS = { maxRows: 200, maxColumns: 20 } as const;
// domain.md §5: location and map controls together, per form.
export const MAX_MAP_CONTROLS = 7;
// domain.md §5: options of a radio, checkbox or drop-down list.
export const MAX_SELECT_OPTIONS = 200;
// domain.md §5
export const MAX_AI_TEMPLATE_FIELDS = 30;
// domain.md §5: custom indexes per form and fields per index.
export const FORM_INDEX_LIMITS = { maxIndexes: 5, maxFieldsPerIndex: 5 } as const;
// domain.md §5
export const MAX_OCR_FILES = 10;
// domain.md §5
export const MAX_BATCH_SCAN_ITEMS = 200;
// domain.md §5: controls in one form, sub-table columns included.
export const FORM_CONTROL_UPPER_LIMIT = 62250;

// ---- Tree structure (domain.md §5) ----

// domain.md §5: a form shown as a tree.
export const TREE_FORM_LIMITS = { maxLevels: 10, maxRecords: 10_000 } as const;
// domain.md §5: the hierarchy view reads more rows than a tree form holds.
export const HIERARCHY_VIEW_LIMITS = { maxLevels: 10, maxRecords: 100_000 } as const;
// domain.md §5: the designer refuses parent references deeper than this (and any cycle).
export const TREE_REFERENCE_MAX_DEPTH = 10;
// domain.md §5: shown when a tree form is full; it says why and who can lift the limit.
export const TREE_LIMIT_MESSAGE =
  `当前表单已开启树形展示，最多支持${TREE_FORM_LIMITS.maxLevels}级、${TREE_FORM_LIMITS.maxRecords}条数据。` +
  '如需继续添加数据，请联系管理员在表单属性中关闭树形展示。';
// domain.md §5: shown when a hierarchy view holds more than it can draw (10 levels, 100,000 records).
export const HIERARCHY_LIMIT_MESSAGE =
  `层级视图最多支持${HIERARCHY_VIEW_LIMITS.maxLevels}级、${HIERARCHY_VIEW_LIMITS.maxRecords}条数据，请缩小视图的筛选范围或联系管理员调整视图。`;

// ---- Sessions, requests and storage (domain.md §9, calls.md §4, §9) ----

// domain.md §9, calls.md §9
export const TOKEN_EXPIRY_HOURS = 48;
// domain.md §9, calls.md §9: default lifetime of values kept in local storage.
export const LOCAL_STORAGE_EXPIRY_HOURS = 168;
// calls.md §7, §9
export const REQUEST_TIMEOUT_MS = 120_000;
// calls.md §9: loading a lazily split script chunk.
export const CHUNK_LOAD_TIMEOUT_SECONDS = 120;
// calls.md §4, §9: object-storage credentials are fetched again this close to expiry.
export const STORAGE_CREDENTIAL_REFRESH_MARGIN_SECONDS = 60;
// calls.md §9: breadcrumbs kept for the error log.
export const BREADCRUMB_MAX = 10;

// ---- Uploads (domain.md §9) ----

// domain.md §9: sizes in MB. "maximum upload 500" is read as a size in MB, like its neighbours.
export const UPLOAD_LIMITS_MB = { defaultImage: 20, defaultAttachment: 10, max: 500 } as const;
// domain.md §9: images larger than this are compressed before upload, at this quality (percent).
export const IMAGE_COMPRESSION = { thresholdMb: 5, quality: 20 } as const;
// domain.md §9: caps per upload scene, in MB ("sns 50 with up to 8 files" reads as 50 MB over 8 files).
export const UPLOAD_SCENE_LIMITS_MB = {
  descriptionImage: 3,
  gridImportFile: 20,
  sns: 50,
  attachment: 10,
  handSign: 10,
  ocrAttachment: 6,
  ocrImage: 20,
} as const;
export type UploadScene = keyof typeof UPLOAD_SCENE_LIMITS_MB;
// domain.md §9: files attached to one comment.
export const SNS_MAX_FILES = 8;

// ---- Display and views (domain.md §9) ----

// domain.md §9: counts above this show as "99+".
export const BADGE_MAX = 99;
// domain.md §9
export const CALENDAR_VIEW_MAX_RECORDS = 1000;
// domain.md §9
export const GANTT_MAX_SWIMLANES = 3;
// Not in the spec (docs/decisions/0054): tasks a Gantt chart reads at once (the calendar's limit) and the
// finish-to-start predecessors one task may have.
export const GANTT_MAX_TASKS = 1000;
export const GANTT_MAX_PREDECESSORS = 50;
// domain.md §9
export const VIEW_ACTIONS_MAX = 100;
// domain.md §9: per form.
export const PRINT_LIMITS = { maxTemplates: 100, maxQrCodes: 50, maxExcelTemplates: 20 } as const;
// domain.md §9: radius choices of a map control, in metres.
export const MAP_RANGES_METRES = [200, 500, 1000] as const;
// domain.md §9
export const TEXT_AREA_ROWS = { default: 3, max: 999 } as const;
// domain.md §9: the form title is either regular or bold.
export const TITLE_FONT_WEIGHTS = [400, 600] as const;
export type TitleFontWeight = (typeof TITLE_FONT_WEIGHTS)[number];

// ---- Paging defaults (calls.md §7, §9) ----

// calls.md §7, §9: LoadTaskRecords starts at page 1 (not 0) and looks back 72 hours.
export const TASK_RECORDS_DEFAULTS = { pageIndex: 1, pageSize: 20, recentHours: 72 } as const;
// calls.md §9: org lists page from offset 0.
export const ORG_LIST_PAGING = { from: 0, pageSize: 50 } as const;

// calls.md §9: data-log queries list newest first and compare numbers without their precision.
export const DATA_LOG_DEFAULTS = { sortDirection: 'desc', ignoreNumericPrecision: true } as const;
