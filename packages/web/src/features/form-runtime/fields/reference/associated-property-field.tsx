import { Typography } from 'antd';
import { controlDisplayText } from '@tritium/shared/controls/index';
import { useDisplayContext } from '../../model/names.tsx';
import { EMPTY_TEXT, type AnyFieldKind, type DisplayProps } from '../field-types.ts';

/**
 * Associated property (关联属性): a field of the record an association points to, formatted by that field's type
 * (sourcePropertySchema). loaddata answers it; the runtime refreshes it when the association changes (0016).
 */
function AssociatedPropertyDisplay({ control, value }: DisplayProps) {
  const context = useDisplayContext();
  const text = controlDisplayText({ type: control.type.key, options: control.options }, value, context);
  return <Typography.Text style={{ wordBreak: 'break-word' }}>{text === '' ? EMPTY_TEXT : text}</Typography.Text>;
}

const showOnly = () => null;

export const ASSOCIATED_PROPERTY_FIELDS = {
  associatedProperty: { Edit: showOnly, Display: AssociatedPropertyDisplay },
} satisfies Record<string, AnyFieldKind>;
