/** Area select (地址): a region (province, city, town) and a street address, stored as JSON. */
import { z } from 'zod';
import { AREA_MODES } from '../constants/formats.ts';
import { TEXT_BOX_MAX_LENGTH } from '../constants/limits.ts';
import { inputControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '地址', 'en-US': 'Address' };

/** adcode: the 6-digit administrative division code of the deepest level picked; adname: its full name. */
const value = z.object({
  adcode: z.string().regex(/^\d{6}$/, '行政区划代码须为6位数字'),
  adname: z.string().trim().min(1),
  detail: z.string().trim().max(TEXT_BOX_MAX_LENGTH).default(''),
});

export const areaSelectControl = defineControlType({
  key: 'areaSelect',
  code: 9,
  group: 'basic',
  displayName,
  dataType: 'address',
  column: { sqlType: 'jsonb' },
  options: inputControlOptions(displayName['zh-CN']).extend({
    /** AreaMode: how deep the region goes (province-city-town, province-city, province). */
    areaMode: z.enum(AREA_MODES).default('P-C-T'),
    showDetail: z.boolean().default(true),
  }),
  value,
  displayText: (address) => (address ? `${address.adname} ${address.detail}`.trim() : ''),
  placement: ANYWHERE,
});
