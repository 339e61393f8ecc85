import { ChatPlatformError, type ChatProviderSettings } from '../integrations/providers/chat-provider.ts';
import { fetchJson, withAppToken } from '../integrations/providers/platform-http.ts';
import { call as dingtalkCall } from '../integrations/providers/dingtalk.ts';
import { accessToken as wxworkToken } from '../integrations/providers/wxwork.ts';

// Punch records from the platforms' attendance APIs (docs/decisions/0123 "Chat apps"), split as the APIs require:
// - DingTalk POST /attendance/list: workDateFrom/workDateTo ("yyyy-MM-dd HH:mm:ss") at most 7 days apart,
//   userIdList at most 50, offset/limit (limit at most 50) paged until hasMore is false; a record's `id` is its key.
// - WeCom POST /cgi-bin/checkin/getcheckindata: opencheckindatatype 3 (all punches), starttime/endtime (Unix seconds)
//   at most 30 days apart, useridlist at most 100, no paging; a punch has no id, so person + time + type is its key.
// Days are calendar days in China time (UTC+8), as the platforms count them.

export type AttendancePlatform = 'dingtalk' | 'wxwork';

export interface Punch {
  /** The platform's key of this punch, unique per platform. */
  key: string;
  /** The platform's user id. */
  userId: string;
  time: Date;
  /** 上班, 下班, 外出 (or the platform's word). */
  punchType: string;
  /** 正常, 迟到, 早退, 缺卡… */
  result: string;
  location: string;
}

export const CHINA_OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;

/** A day (YYYY-MM-DD) as the UTC instant of its China-time midnight. */
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);
/** The China-time day of an instant. */
export const dayOf = (time: number) => new Date(time + CHINA_OFFSET_MS).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(dayStart(day) + n * DAY_MS);

/** [from, to] cut into spans of at most `days` days. */
export function daySpans(from: string, to: string, days: number): [string, string][] {
  const spans: [string, string][] = [];
  for (let start = from; start <= to; start = addDays(start, days)) {
    const end = addDays(start, days - 1);
    spans.push([start, end < to ? end : to]);
  }
  return spans;
}

export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const DING_TYPES: Record<string, string> = { OnDuty: '上班', OffDuty: '下班' };
const DING_RESULTS: Record<string, string> = { Normal: '正常', Early: '早退', Late: '迟到', SeriousLate: '严重迟到', Absenteeism: '旷工迟到', NotSigned: '缺卡' };
const DING_LOCATIONS: Record<string, string> = { Normal: '范围内', Outside: '范围外', NotSigned: '未打卡' };

interface DingRecord {
  id: number | string;
  userId: string;
  checkType: string;
  timeResult: string;
  locationResult?: string;
  userCheckTime: number;
  userAddress?: string;
}

async function dingtalkPunches(settings: ChatProviderSettings, from: string, to: string, userIds: string[]): Promise<Punch[]> {
  const punches: Punch[] = [];
  for (const [start, end] of daySpans(from, to, 7)) {
    for (const users of chunks(userIds, 50)) {
      for (let offset = 0; ; offset += 50) {
        const answer = await dingtalkCall(settings, '/attendance/list', { workDateFrom: `${start} 00:00:00`, workDateTo: `${end} 00:00:00`, userIdList: users, offset, limit: 50, isI18n: false });
        for (const r of (answer.recordresult as DingRecord[] | undefined) ?? []) {
          punches.push({
            key: String(r.id),
            userId: r.userId,
            time: new Date(Number(r.userCheckTime)),
            punchType: DING_TYPES[r.checkType] ?? r.checkType,
            result: DING_RESULTS[r.timeResult] ?? r.timeResult,
            location: r.userAddress || (r.locationResult ? (DING_LOCATIONS[r.locationResult] ?? r.locationResult) : ''),
          });
        }
        if (!answer.hasMore) break;
      }
    }
  }
  return punches;
}

interface WxCheckin {
  userid: string;
  checkin_type: string;
  exception_type: string;
  checkin_time: number;
  location_title?: string;
  location_detail?: string;
}

/** WeCom names a late or early punch "时间异常": which one it is follows from the punch's type. */
function wxworkResult(c: WxCheckin): string {
  const exceptions = c.exception_type.split(';').map((e) => e.trim()).filter(Boolean);
  if (!exceptions.length) return '正常';
  return exceptions.map((e) => (e === '时间异常' ? (c.checkin_type.startsWith('上班') ? '迟到' : c.checkin_type.startsWith('下班') ? '早退' : e) : e === '未打卡' ? '缺卡' : e)).join('；');
}

async function wxworkCall(settings: ChatProviderSettings, path: string, body: unknown): Promise<Record<string, unknown>> {
  return withAppToken(
    (fresh) => wxworkToken(settings, fresh),
    (error) => error.platformCode === 42001 || error.platformCode === 40014,
    async (token) => {
      const url = new URL(path, settings.baseUrl);
      url.searchParams.set('access_token', token);
      const { status, body: json } = await fetchJson(settings.http, 'WeCom', url, { body });
      if (typeof json.errcode !== 'number') throw new ChatPlatformError(status, `WeCom answered ${status} without errcode`, 'unreachable');
      if (json.errcode !== 0) {
        const credentials = [40001, 40013, 48002, 301023].includes(json.errcode);
        throw new ChatPlatformError(json.errcode, `WeCom ${path}: ${json.errcode} ${String(json.errmsg)}`, credentials ? 'credentials' : 'other');
      }
      return json;
    },
  );
}

async function wxworkPunches(settings: ChatProviderSettings, from: string, to: string, userIds: string[]): Promise<Punch[]> {
  const punches: Punch[] = [];
  for (const [start, end] of daySpans(from, to, 30)) {
    for (const users of chunks(userIds, 100)) {
      const answer = await wxworkCall(settings, '/cgi-bin/checkin/getcheckindata', {
        opencheckindatatype: 3,
        starttime: Math.floor(dayStart(start) / 1000),
        endtime: Math.floor((dayStart(end) + DAY_MS) / 1000) - 1,
        useridlist: users,
      });
      for (const c of (answer.checkindata as WxCheckin[] | undefined) ?? []) {
        punches.push({
          key: `${c.userid}:${c.checkin_time}:${c.checkin_type}`,
          userId: c.userid,
          time: new Date(c.checkin_time * 1000),
          punchType: c.checkin_type.replace(/打卡$/, ''),
          result: wxworkResult(c),
          location: [c.location_title, c.location_detail].filter(Boolean).join(' '),
        });
      }
    }
  }
  return punches;
}

/** Every punch of these people on these days (inclusive), in the platform's order. */
export function readPunches(platform: AttendancePlatform, settings: ChatProviderSettings, from: string, to: string, userIds: string[]): Promise<Punch[]> {
  if (!userIds.length) return Promise.resolve([]);
  return platform === 'dingtalk' ? dingtalkPunches(settings, from, to, userIds) : wxworkPunches(settings, from, to, userIds);
}

/** The days of a range relative to `now` (China time). */
export function rangeDays(range: { type: 'yesterday' } | { type: 'lastDays'; days: number } | { type: 'fixed'; from: string; to: string }, now: Date): { from: string; to: string } {
  const today = dayOf(now.getTime());
  if (range.type === 'yesterday') return { from: addDays(today, -1), to: addDays(today, -1) };
  if (range.type === 'lastDays') return { from: addDays(today, 1 - range.days), to: today };
  return { from: range.from, to: range.to };
}
