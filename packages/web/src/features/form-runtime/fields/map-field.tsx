/** Map (位置): the picked place's address and coordinates, and a dialog with a map to pick it. */
import { lazy, Suspense, useState } from 'react';
import { Button, Input, Space } from 'antd';
import { CloseCircleOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EMPTY_TEXT, type DisplayProps, type FieldKind, type FieldProps } from './field-types.ts';
import { formatPoint, rangeOf } from './map-range.ts';
import type { MapValue } from './map-dialog.tsx';

export type { MapValue };

// leaflet is loaded when the dialog first opens, not with the form.
const MapDialog = lazy(() => import('./map-dialog.tsx'));

/** "深圳湾科技生态园 (22.527000, 113.943000)", or '--'. */
export function mapText(value: MapValue | null): string {
  return value ? `${value.address} ${formatPoint(value.point)}` : EMPTY_TEXT;
}

function MapEdit({ control, value, onChange, id, invalid, disabled }: FieldProps<MapValue>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={id}
          readOnly
          prefix={<EnvironmentOutlined />}
          value={value ? mapText(value) : ''}
          placeholder={t('formRuntimeFields.map.placeholder')}
          status={invalid ? 'error' : undefined}
          disabled={disabled}
          suffix={
            value && !disabled ? (
              <Button type="text" size="small" icon={<CloseCircleOutlined />} aria-label={t('formRuntimeFields.map.clear')} onClick={() => onChange(null)} />
            ) : undefined
          }
        />
        <Button onClick={() => setOpen(true)} disabled={disabled}>
          {t('formRuntimeFields.map.pick')}
        </Button>
      </Space.Compact>
      {open && (
        <Suspense fallback={null}>
          <MapDialog
            open={open}
            value={value}
            range={rangeOf(control.options)}
            onClose={() => setOpen(false)}
            onConfirm={(next) => {
              onChange(next);
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

function MapDisplay({ value }: DisplayProps<MapValue>) {
  return <span>{mapText(value)}</span>;
}

export const mapField: FieldKind<MapValue> = { Edit: MapEdit, Display: MapDisplay };
