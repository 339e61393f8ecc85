/** Area select (地址): a province / city / county cascader as deep as the control's areaMode, and a street address. */
import { useEffect, useState } from 'react';
import { Cascader, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AreaMode } from '@tritium/shared/constants/formats';
import { TEXT_BOX_MAX_LENGTH } from '@tritium/shared/constants/limits';
import type { AreaNode } from '@tritium/shared/reference/areas';
import { EMPTY_TEXT, type DisplayProps, type FieldKind, type FieldProps } from './field-types.ts';

export interface AreaValue {
  adcode: string;
  adname: string;
  detail: string;
}

type AreasModule = typeof import('@tritium/shared/reference/areas');

let areasModule: Promise<AreasModule> | undefined;

// ~3,900 names: their own chunk, loaded when the first area field shows.
function loadAreas(): Promise<AreasModule> {
  areasModule ??= import('@tritium/shared/reference/areas').catch((error: unknown) => {
    areasModule = undefined;
    throw error;
  });
  return areasModule;
}

function useAreas(): { areas: AreasModule | undefined; failed: boolean } {
  const [areas, setAreas] = useState<AreasModule>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadAreas().then(
      (loaded) => live && setAreas(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  return { areas, failed };
}

const areaModeOf = (options: Record<string, unknown>): AreaMode =>
  options.areaMode === 'P' || options.areaMode === 'P-C' ? options.areaMode : 'P-C-T';

const PLACEHOLDER_KEYS = { P: 'placeholderP', 'P-C': 'placeholderPC', 'P-C-T': 'placeholder' } as const;

function AreaEdit({ control, value, onChange, id, invalid, disabled }: FieldProps<AreaValue>) {
  const { t } = useTranslation();
  const { areas, failed } = useAreas();
  const mode = areaModeOf(control.options);
  const showDetail = control.options.showDetail !== false;
  // The street address typed before a region is picked waits here until there is a value to hold it.
  const [draftDetail, setDraftDetail] = useState(value?.detail ?? '');
  const detail = value ? value.detail : draftDetail;

  const handleAreaChange = (codes: string[] | undefined, picked: AreaNode[] | undefined) => {
    if (!codes?.length || !picked?.length) {
      setDraftDetail(detail);
      onChange(null);
      return;
    }
    const adcode = codes[codes.length - 1];
    onChange({ adcode, adname: picked.map((node) => node.name).join(' '), detail: showDetail ? detail : '' });
  };

  const handleDetailChange = (next: string) => {
    if (value) onChange({ ...value, detail: next });
    else setDraftDetail(next);
  };

  return (
    <Space.Compact orientation="vertical" style={{ width: '100%' }}>
      <Cascader<AreaNode>
        id={id}
        style={{ width: '100%' }}
        options={areas?.areaTree(mode) ?? []}
        fieldNames={{ label: 'name', value: 'code', children: 'children' }}
        value={value && areas ? areas.areaCodePath(value.adcode) : undefined}
        onChange={(codes, picked) => handleAreaChange(codes as string[] | undefined, picked as AreaNode[] | undefined)}
        showSearch={{ filter: (input, path) => path.some((node) => node.name.includes(input.trim())) }}
        placeholder={value && !areas ? value.adname : t(`formRuntimeFields.area.${PLACEHOLDER_KEYS[mode]}`)}
        notFoundContent={t('formRuntimeFields.area.notFound')}
        loading={!areas && !failed}
        status={invalid ? 'error' : undefined}
        disabled={disabled}
        allowClear
      />
      {failed && <Typography.Text type="danger">{t('formRuntimeFields.area.loadFailed')}</Typography.Text>}
      {showDetail && (
        <Input
          aria-label={t('formRuntimeFields.area.detail')}
          placeholder={t('formRuntimeFields.area.detailPlaceholder')}
          value={detail}
          onChange={(event) => handleDetailChange(event.target.value)}
          status={invalid ? 'error' : undefined}
          disabled={disabled}
          maxLength={TEXT_BOX_MAX_LENGTH}
        />
      )}
    </Space.Compact>
  );
}

/** The text an address shows as: "广东省 深圳市 南山区 科技园路 1 号", or '--'. */
export function areaText(value: AreaValue | null): string {
  return value ? `${value.adname} ${value.detail ?? ''}`.trim() || EMPTY_TEXT : EMPTY_TEXT;
}

function AreaDisplay({ value }: DisplayProps<AreaValue>) {
  return <span>{areaText(value)}</span>;
}

export const areaField: FieldKind<AreaValue> = { Edit: AreaEdit, Display: AreaDisplay };
