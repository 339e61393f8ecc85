/** UPPERMONEY: an amount in Chinese financial capitals (人民币大写), e.g. 1234.56 → 壹仟贰佰叁拾肆元伍角陆分. */
import * as formulajs from '@formulajs/formulajs';

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const PLACES = ['', '拾', '佰', '仟'];
const GROUPS = ['', '万', '亿', '万亿'];

/** One group of four digits: zeros inside collapse to one 零, trailing zeros are dropped. */
function groupText(group: number): string {
  let text = '';
  let pendingZero = false;
  for (let place = 3; place >= 0; place -= 1) {
    const digit = Math.floor(group / 10 ** place) % 10;
    if (digit === 0) {
      if (text) pendingZero = true;
      continue;
    }
    if (pendingZero) text += '零';
    pendingZero = false;
    text += DIGITS[digit] + PLACES[place];
  }
  return text;
}

function integerText(n: number): string {
  const groups: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 10000)) groups.push(rest % 10000);
  let text = '';
  let gap = false;
  for (let index = groups.length - 1; index >= 0; index -= 1) {
    const group = groups[index];
    if (group === 0) {
      gap = text !== '';
      continue;
    }
    // 100010000 → 壹亿零壹万: a zero group or a group under a thousand after a higher one is read with 零.
    if (text && (gap || group < 1000)) text += '零';
    text += groupText(group) + GROUPS[index];
    gap = false;
  }
  return text;
}

/** Rounded half-up to the fen (formulajs ROUND); '' for amounts of 10^16 yuan or more and for non-numbers. */
export function upperMoney(amount: number): string {
  if (!Number.isFinite(amount)) return '';
  const rounded = formulajs.ROUND(Math.abs(amount), 2) as number;
  if (rounded >= 1e16) return '';
  const cents = Math.round(rounded * 100);
  const yuan = Math.floor(cents / 100);
  const jiao = Math.floor(cents / 10) % 10;
  const fen = cents % 10;
  if (cents === 0) return '零元整';
  let text = yuan > 0 ? `${integerText(yuan)}元` : '';
  if (jiao === 0 && fen === 0) text += '整';
  else {
    if (jiao > 0) text += `${DIGITS[jiao]}角`;
    else if (yuan > 0) text += '零';
    if (fen > 0) text += `${DIGITS[fen]}分`;
  }
  return (amount < 0 ? '负' : '') + text;
}
