import { Typography } from 'antd';
import { EMPTY_TEXT, type DisplayProps } from './field-types.ts';
import { useDisplayContext } from '../model/names.tsx';

/** A value as the registry's display text (names from the form's lookups), '--' when empty (domain.md §9). */
export function DisplayText({ control, value }: DisplayProps) {
  const context = useDisplayContext();
  const text = value == null || value === '' ? '' : control.type.displayText(value as never, control.options as never, context);
  return <Typography.Text style={{ wordBreak: 'break-word' }}>{text === '' ? EMPTY_TEXT : text}</Typography.Text>;
}
