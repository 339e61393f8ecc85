import { z } from 'zod';

/** A password a link may ask of its visitors (public fill-in links, record shares). */
export const PUBLIC_LINK_PASSWORD_MAX = 32;
export const LinkPassword = z.string().min(4, '密码至少4个字符').max(PUBLIC_LINK_PASSWORD_MAX, `密码最多${PUBLIC_LINK_PASSWORD_MAX}个字符`);
