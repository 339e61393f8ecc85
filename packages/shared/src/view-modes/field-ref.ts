import { z } from 'zod';

/** A field code inside a mode's settings (the view contract's pattern). */
export const ModeFieldRef = z.string().min(1).max(127).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, '字段编码无效');
/** Fields shown on a card, tile or event besides its title. */
export const CARD_FIELDS_MAX = 6;
export const ShownFields = z.array(ModeFieldRef).max(CARD_FIELDS_MAX).default([]);
