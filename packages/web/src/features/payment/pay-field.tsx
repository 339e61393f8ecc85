import { Button } from 'antd';
import type { FieldProps } from '../form-runtime/fields/field-types.ts';

/** The payment plugin's control (docs/decisions/0123): replaced by the payment part. */
export function PayField({ control, disabled }: FieldProps) {
  return <Button disabled={disabled}>{control.label}</Button>;
}
