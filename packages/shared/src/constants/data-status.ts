/**
 * Data status of a business object (domain.md §4). The numbers are stored in the Status system field,
 * so they must never be renumbered.
 */
export const BizObjectStatus = { Draft: 0, Effective: 1, Running: 2, Canceled: 3 } as const;
export type BizObjectStatus = (typeof BizObjectStatus)[keyof typeof BizObjectStatus];

/** Every data status code, in numeric order. */
export const BIZ_OBJECT_STATUSES = Object.values(BizObjectStatus) as readonly BizObjectStatus[];

export type StatusColor = 'orange' | 'green' | 'blue' | 'grey';

// domain.md §4: Draft orange, Running blue, Canceled grey. The spec gives no colour for Effective;
// green is our choice so that every status has its own colour.
export const BIZ_OBJECT_STATUS_COLORS: Readonly<Record<BizObjectStatus, StatusColor>> = {
  [BizObjectStatus.Draft]: 'orange',
  [BizObjectStatus.Effective]: 'green',
  [BizObjectStatus.Running]: 'blue',
  [BizObjectStatus.Canceled]: 'grey',
};

// domain.md §4: the displayed labels are Draft, Effective, Running and Canceled, in Chinese.
export const BIZ_OBJECT_STATUS_LABELS: Readonly<Record<BizObjectStatus, string>> = {
  [BizObjectStatus.Draft]: '草稿',
  [BizObjectStatus.Effective]: '生效',
  [BizObjectStatus.Running]: '进行中',
  [BizObjectStatus.Canceled]: '已作废',
};

/** True when the value is one of the four data status codes. */
export function isBizObjectStatus(value: unknown): value is BizObjectStatus {
  return typeof value === 'number' && (BIZ_OBJECT_STATUSES as readonly number[]).includes(value);
}
