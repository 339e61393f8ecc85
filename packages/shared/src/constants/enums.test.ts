import { describe, it, expect } from 'vitest';
import * as constants from './index.ts';
import {
  ApprovalStatus,
  BIZ_OBJECT_STATUS_COLORS,
  BIZ_OBJECT_STATUS_LABELS,
  BIZ_OBJECT_STATUSES,
  BizObjectStatus,
  DEFAULT_SCHEMA_NODE_TYPES,
  FunctionNodeType,
  RowHeight,
  UserAuthType,
  ViewMode,
  ViewScope,
  isBizObjectStatus,
} from './index.ts';

// Numeric enums are the PascalCase object exports whose values are all numbers; SCREAMING_CASE objects
// are limits, where equal values are fine (5 indexes of 5 fields).
const numericEnums = Object.entries(constants).filter(
  ([name, value]) =>
    /^[A-Z][a-z]/.test(name) &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).length > 0 &&
    Object.values(value).every((v) => typeof v === 'number'),
) as [string, Record<string, number>][];

describe('numeric enums', () => {
  it('are all found', () => {
    expect(numericEnums.map(([name]) => name).sort()).toEqual(
      ['ApprovalStatus', 'BizObjectStatus', 'FunctionNodeType', 'RowHeight', 'UserAuthType', 'ViewMode', 'ViewScope'].sort(),
    );
  });

  it.each(numericEnums)('%s has unique integer values', (_name, enumObject) => {
    const values = Object.values(enumObject);
    expect(values.every(Number.isInteger)).toBe(true);
    expect(new Set(values).size).toBe(values.length);
  });

  it('keep the codes of the spec', () => {
    // domain.md §3, calls.md §3
    expect(FunctionNodeType).toEqual({
      AppPackage: 190,
      FormModule: 200,
      WorkflowModule: 210,
      ReportModule: 220,
      GroupModule: 230,
      SingletonModule: 240,
      ChatWorkflowModule: 250,
      DashBoardModule: 270,
      CustomLinkModule: 280,
      DataSourceModule: 290,
    });
    expect(Object.values(FunctionNodeType).sort((a, b) => a - b)).toEqual([190, 200, 210, 220, 230, 240, 250, 270, 280, 290]);
    expect(BizObjectStatus).toEqual({ Draft: 0, Effective: 1, Running: 2, Canceled: 3 });
    expect(ApprovalStatus).toEqual({ Pending: -1, Disagree: 0, Agree: 1 });
    expect(ViewMode).toEqual({ List: 0, Calendar: 1, Timeline: 2, Gantt: 4, Map: 5, Hierarchy: 6, Card: 7, Kanban: 8, MobileGrid: 9 });
    expect(ViewScope).toEqual({ ViewOwn: 1, ViewOwnDept: 2, ViewAll: 3 });
    expect(RowHeight).toEqual({ Compact: 36, Common: 46, Medium: 68, Large: 90 });
    expect(UserAuthType).toEqual({ Administrator: 1, SubAdministrator: 2, Personal: 3, Anonymous: 4, External: 5, AppCreator: 6 });
  });

  it('only lists node types that exist as default-schema candidates', () => {
    expect(DEFAULT_SCHEMA_NODE_TYPES).not.toContain(FunctionNodeType.GroupModule);
    expect(DEFAULT_SCHEMA_NODE_TYPES).not.toContain(FunctionNodeType.AppPackage);
    expect(DEFAULT_SCHEMA_NODE_TYPES).toHaveLength(6);
  });
});

describe('string sets', () => {
  const stringSets = Object.entries(constants).filter(
    ([name, value]) => /^[A-Z_]+$/.test(name) && Array.isArray(value) && value.every((v) => typeof v === 'string'),
  ) as [string, string[]][];

  it('are found', () => {
    expect(stringSets.length).toBeGreaterThan(30);
  });

  it.each(stringSets)('%s has no duplicates', (_name, values) => {
    expect(new Set(values).size).toBe(values.length);
  });
});

describe('data status', () => {
  it('has a zh-CN label and a distinct colour for every status', () => {
    expect(BIZ_OBJECT_STATUSES).toEqual([0, 1, 2, 3]);
    expect(BIZ_OBJECT_STATUSES.map((s) => BIZ_OBJECT_STATUS_LABELS[s])).toEqual(['草稿', '生效', '进行中', '已作废']);
    expect(BIZ_OBJECT_STATUS_COLORS[BizObjectStatus.Draft]).toBe('orange');
    expect(BIZ_OBJECT_STATUS_COLORS[BizObjectStatus.Running]).toBe('blue');
    expect(BIZ_OBJECT_STATUS_COLORS[BizObjectStatus.Canceled]).toBe('grey');
    expect(new Set(Object.values(BIZ_OBJECT_STATUS_COLORS)).size).toBe(4);
  });

  it('recognises only the four codes', () => {
    expect([0, 1, 2, 3].every(isBizObjectStatus)).toBe(true);
    expect([-1, 4, '0', null, 1.5].some(isBizObjectStatus)).toBe(false);
  });
});
