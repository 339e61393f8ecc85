import type { contracts } from '@tritium/shared';
import { excelJs } from '../../lib/lazy-packages.ts';

// The operation log as an .xlsx sheet (docs/decisions/0113): the entries the filters select, newest first.

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** 操作日志.xlsx, with an ASCII name for clients that do not read filename*. */
export const EXPORT_DISPOSITION = `attachment; filename="oplog.xlsx"; filename*=UTF-8''${encodeURIComponent('操作日志.xlsx')}`;

export const KIND_LABELS: Record<contracts.OplogKind, string> = {
  member: '成员', department: '部门', role: '角色', permissionGroup: '权限组', appAdmin: '应用管理员', form: '表单', workflow: '流程',
  automation: '自动化', signIn: '登录设置', notificationChannel: '通知渠道', connection: '连接', plugin: '插件', openApiKey: '开放接口密钥', engineSetting: '组织设置',
};

export const ACTION_LABELS: Record<contracts.OplogAction, string> = {
  create: '新建', update: '修改', remove: '删除', publish: '发布', grant: '授权', move: '移动', enable: '启用', disable: '停用', revoke: '撤销',
};

/** Beijing time as the console shows it, e.g. 2026-11-28 09:30:00. */
const beijing = (iso: string) => new Date(iso).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
const text = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

export async function oplogWorkbook(entries: contracts.OplogEntryDto[]): Promise<Buffer> {
  const workbook = new (await excelJs()).Workbook();
  const sheet = workbook.addWorksheet('操作日志');
  sheet.columns = [
    { header: '序号', key: 'seq', width: 8 },
    { header: '时间', key: 'time', width: 22 },
    { header: '操作人', key: 'user', width: 12 },
    { header: '对象类型', key: 'kind', width: 12 },
    { header: '操作', key: 'action', width: 8 },
    { header: '对象', key: 'object', width: 20 },
    { header: '对象 ID', key: 'objectId', width: 26 },
    { header: '修改前', key: 'before', width: 40 },
    { header: '修改后', key: 'after', width: 40 },
    { header: '请求 ID', key: 'requestId', width: 26 },
    { header: '来源地址', key: 'ip', width: 16 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const e of entries) {
    sheet.addRow({
      seq: e.seq, time: beijing(e.time), user: e.userName ?? e.userId ?? '', kind: KIND_LABELS[e.kind] ?? e.kind, action: ACTION_LABELS[e.action] ?? e.action,
      object: e.objectName ?? '', objectId: e.objectId ?? '', before: text(e.before), after: text(e.after), requestId: e.requestId ?? '', ip: e.ip ?? '',
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
