/** Map (位置): a place picked on a map, stored as JSON with its address and coordinates. */
import { z } from 'zod';
import { MAP_RANGES_METRES, MAX_MAP_CONTROLS } from '../constants/limits.ts';
import { dataControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '位置', 'en-US': 'Location' };

const value = z.object({
  address: z.string().trim().min(1),
  point: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }),
});

export const mapControl = defineControlType({
  key: 'map',
  code: 10,
  group: 'basic',
  displayName,
  dataType: 'location',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** Only places this many metres around the person's position may be picked; null allows any place. */
    range: z.literal(MAP_RANGES_METRES).nullable().default(null),
  }),
  value,
  displayText: (place) => place?.address ?? '',
  limits: { maxPerForm: MAX_MAP_CONTROLS },
  placement: ANYWHERE,
});
