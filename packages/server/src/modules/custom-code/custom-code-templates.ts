import type { contracts } from '@tritium/shared';

// What the editor shows before a part's first save (docs/decisions/0118 "Handlers a script exports"): every handler
// the part may export, commented in Chinese, none of them active.

const FORM_SERVER = `// 表单后端代码：在服务器的沙箱中运行，只能通过 ctx 访问数据。
// 需要哪个事件，就去掉它前面的注释。

// 表单加载时运行：可以修改 ctx.record 中返回给表单的值。
// export async function onLoad(ctx: ScriptContext) {
// }

// 提交、保存、删除、流程操作和按钮操作时运行：ctx.actionName 是操作名称。
// 调用 ctx.refuse('提示信息') 可以拒绝本次操作，本次修改全部不会保存。
// export async function onSubmit(ctx: ScriptContext) {
//   if (ctx.actionName === 'Submit' && Number(ctx.record.Amount) > 10000) {
//     ctx.refuse('金额超过 10000，不能提交');
//   }
// }

// 按钮调用的后端操作：actions.操作名称(ctx, params)。
// export const actions = {
//   async createTask(ctx: ScriptContext, params: Record<string, unknown>) {
//     ctx.log('参数', params);
//   },
// };

// 列表按钮：ctx.objectIds 是选中的数据。
// export async function onListAction(ctx: ScriptContext) {
// }
`;

const FORM_BROWSER = `// 表单前端代码：在隔离的沙箱页面中运行，只能通过 form 操作表单。
// 需要哪个事件，就去掉它前面的注释。

// export function onLoad(form: ScriptForm) {}
// export function afterLoad(form: ScriptForm) {}

// 字段的值改变时运行。
// export function onChange(form: ScriptForm, field: string, value: unknown) {
//   if (field === 'Type') value === '内部' ? form.hide('Customer') : form.show('Customer');
// }

// 返回一段文字即阻止提交，并显示这段文字。
// export function validate(form: ScriptForm): string | void {}

// export function beforeSubmit(form: ScriptForm, actionName: string) {}
// export function afterSubmit(form: ScriptForm, result: unknown) {}

// 按钮：buttons.操作名称(form)。
// export const buttons = {
//   async check(form: ScriptForm) {
//     const answer = await form.callServer('check', { id: form.get('Code') });
//     form.message(String(answer), 'info');
//   },
// };
`;

const APP_API = `// 应用的自定义接口：开放接口 /OpenApi/Invoke 以 ActionName 调用 actions 中同名的函数，
// 函数的返回值即 ReturnData。
// export const actions = {
//   async hello(ctx: ScriptContext, params: Record<string, unknown>) {
//     return { message: '你好，' + String(params.name ?? '') };
//   },
// };
`;

export const STARTER_TEMPLATES: Record<contracts.CustomCodePart, string> = {
  'form-server': FORM_SERVER,
  'form-browser': FORM_BROWSER,
  'app-api': APP_API,
};
