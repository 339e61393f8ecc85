import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import type { Active, Over } from '@dnd-kit/core';
import { findForeignText } from '../test/zh-cn-text-check.ts';
import { useDragAccessibility } from './use-drag-accessibility.ts';

// What a screen reader hears while an app, a node, a card or a control is dragged: Chinese, with names, never ids.

const active = { id: 'crm' } as Active;
const over = { id: 'hr' } as Over;

describe('drag announcements', () => {
  it('name the dragged item and its target in Chinese', () => {
    const names: Record<string, string> = { crm: '客户管理', hr: '人事管理' };
    const { result } = renderHook(() => useDragAccessibility((id) => names[String(id)]));
    const { announcements, screenReaderInstructions } = result.current;
    const said = [
      announcements.onDragStart({ active }),
      announcements.onDragOver({ active, over }),
      announcements.onDragEnd({ active, over }),
      announcements.onDragEnd({ active, over: null }),
      announcements.onDragCancel({ active, over: null }),
      screenReaderInstructions.draggable,
    ];
    expect(said[0]).toBe('已拿起「客户管理」。');
    expect(said[2]).toBe('已将「客户管理」放到「人事管理」。');
    for (const text of said) expect(findForeignText(text ?? '')).toEqual([]);
  });

  it('speak of an item it cannot name without showing its id', () => {
    const { result } = renderHook(() => useDragAccessibility());
    const text = result.current.announcements.onDragEnd({ active: { id: '01a2242e-6608-7018' } as Active, over: { id: 'x9' } as Over });
    expect(text).toBe('已将「所选项」放到「目标位置」。');
  });
});
