import { describe, expect, it } from 'vitest';
import { findForeignText } from './zh-cn-text-check.ts';

describe('findForeignText', () => {
  it('passes Chinese text with the spec’s dates, times, numbers and allowed names', () => {
    expect(findForeignText('张三 发起 2026-11-29 05:27 数据日志 2026-11-29 05:27:04 共 12 条 11-29 2026-11 导出 Excel')).toEqual([]);
    expect(findForeignText('↑↓ 选择 · Enter 打开 · Esc 关闭 字段 F0001')).toEqual([]);
  });

  it('finds Latin words outside the allow list, which a caller may extend', () => {
    expect(findForeignText('搜索 Ctrl+K 打开 Approved')).toEqual(['Approved']);
    expect(findForeignText('客户 CustomerName', ['CustomerName'])).toEqual([]);
  });

  it('finds dates and times not in the zh-CN formats', () => {
    expect(findForeignText('11/29/2026, 5:27:04 AM')).toEqual(['11/29/2026', '5:27', 'AM']);
    expect(findForeignText('提交于 2026/11/29 05:27')).toEqual(['2026/11/29']);
    expect(findForeignText('收到 11-29 05:33')).toEqual(['11-29 05:33']);
    expect(findForeignText('2026-1-5 与 2026-11-29T05:27:04.000Z')).toEqual(['2026-1-5', '2026-11-29T05:27']);
    expect(findForeignText('下午5:27 与 2026年11月29日')).toEqual(['下午5:27', '2026年11月29日']);
  });
});
