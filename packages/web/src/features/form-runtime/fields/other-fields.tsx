/** Batch scan, the status, the controls of outside services, and the button and dynamic controls of the form's code. */
import { Tag, Typography } from 'antd';
import { BIZ_OBJECT_STATUS_COLORS, BIZ_OBJECT_STATUS_LABELS, type BizObjectStatus } from '@tritium/shared/constants/data-status';
import { batchScanField } from './batch-scan-field.tsx';
import { advancedButtonField } from './advanced-button-field.tsx';
import { pluginField } from './plugin-field.tsx';
import { EMPTY_TEXT, type AnyFieldKind, type DisplayProps, type FieldProps } from './field-types.ts';
import { buttonField } from '../scripts/button-field.tsx';
import { dynamicField } from '../scripts/dynamic-field.tsx';
import { eSignField } from './esign-field.tsx';
import { faceRecognitionField } from './face-field.tsx';
import { ocrField } from './ocr-field.tsx';

// ui.md: antd's grey is "default".
const tagColor = (status: BizObjectStatus) => (BIZ_OBJECT_STATUS_COLORS[status] === 'grey' ? 'default' : BIZ_OBJECT_STATUS_COLORS[status]);

export function StatusTag({ status }: { status: number | null | undefined }) {
  if (status == null || !(status in BIZ_OBJECT_STATUS_LABELS)) return <Typography.Text>{EMPTY_TEXT}</Typography.Text>;
  const known = status as BizObjectStatus;
  return (
    <Tag color={tagColor(known)} style={{ alignSelf: 'flex-start' }}>
      {BIZ_OBJECT_STATUS_LABELS[known]}
    </Tag>
  );
}

function StatusDisplay({ value }: DisplayProps<number>) {
  return <StatusTag status={value} />;
}

export const OTHER_FIELDS = {
  batchScan: batchScanField,
  dynamic: dynamicField,
  status: { Edit: (props: FieldProps<number>) => <StatusTag status={props.value} />, Display: StatusDisplay },
  ocr: ocrField,
  eSign: eSignField,
  faceRecognition: faceRecognitionField,
  advancedButton: advancedButtonField,
  plugin: pluginField,
  button: buttonField,
} satisfies Record<string, AnyFieldKind>;
