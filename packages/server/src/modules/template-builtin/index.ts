import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { TemplateBuildContext, TemplateBuilder, BuiltTemplate } from './build-kit.ts';
import { buildLeave } from './leave.ts';
import { buildExpense } from './expense.ts';
import { buildCrm } from './crm.ts';
import { buildInventory } from './inventory.ts';
import { buildProject } from './project.ts';
import { buildPurchase } from './purchase.ts';

// The built-in templates (issue 46; docs/decisions/0132): six working apps with sample data in Chinese, each made by
// a builder in an engine through the designers' and the form runtime's own services. scripts/build-templates.ts runs
// them in a scratch database and packages each app into packages/server/templates/, which the template market
// registers at start (modules/template/builtin-registry.ts).

export type { TemplateBuildContext, TemplateBuilder, BuiltTemplate };

export interface BuiltInTemplate {
  /** The manifest's code: the package file's name too. */
  code: string;
  name: string;
  category: (typeof contracts.TEMPLATE_CATEGORIES)[number];
  summary: string;
  description: string;
  icon: string;
  iconColor: string;
  build: TemplateBuilder;
}

export const BUILT_IN_TEMPLATES: BuiltInTemplate[] = [
  {
    code: 'leave-request', name: '请假审批', category: '人事行政', icon: 'calendar', iconColor: '#13a8a8', build: buildLeave,
    summary: '在线请假，自动计算天数，部门主管审批，按请假类型统计',
    description: '员工填写请假类型、起止日期、事由并可上传病假条等附件，系统按起止日期计算请假天数；提交后由申请人所在部门的主管审批。含请假列表与请假统计仪表盘（已批准天数、申请数、待审批数）。附 12 条示例请假记录。',
  },
  {
    code: 'expense-claim', name: '费用报销', category: '财务', icon: 'dollar', iconColor: '#fa8c16', build: buildExpense,
    summary: '按明细报销，自动合计，主管与财务两级审批，按费用类别统计',
    description: '报销单以子表逐条填写费用类别、日期、金额与说明，报销总额自动汇总；提交后依次由部门主管、财务（角色“财务”，没有时自动创建）审批。仪表盘按费用类别、月份统计已报销金额。附 10 张示例报销单。',
  },
  {
    code: 'crm', name: '客户管理', category: '销售与客户', icon: 'team', iconColor: '#1f6fff', build: buildCrm,
    summary: '客户、联系人、跟进记录与商机，销售看板按阶段和负责人统计',
    description: '客户档案关联联系人、跟进记录与销售商机；客户自动汇总跟进次数、进行中商机金额与已成交金额。销售看板展示各阶段商机金额、各负责人商机数、进行中商机总额与跟进方式分布。附 8 个客户及其联系人、跟进与商机示例。',
  },
  {
    code: 'inventory', name: '进销存', category: '进销存', icon: 'shop', iconColor: '#52c41a', build: buildInventory,
    summary: '采购入库、销售出库，库存按流水自动汇总',
    description: '采购入库单与销售出库单以子表录入商品、数量与单价；单据生效时按明细生成库存流水，删除单据时一并撤回。商品自动汇总累计入库、累计出库与当前库存，库存清单一目了然；看板展示各商品库存与采购、销售金额。附 8 种商品及 11 张示例单据。',
  },
  {
    code: 'project', name: '项目管理', category: '项目管理', icon: 'project', iconColor: '#2f54eb', build: buildProject,
    summary: '项目与任务，甘特图排期，自动汇总任务完成情况',
    description: '任务记录所属项目、上级任务、负责人、起止日期与进度，在甘特图中按层级查看、拖动排期和更新进度；项目自动汇总任务数与已完成任务数。附 2 个项目、16 个示例任务。',
  },
  {
    code: 'purchase-request', name: '行政采购', category: '采购', icon: 'cart', iconColor: '#722ed1', build: buildPurchase,
    summary: '采购申请按金额审批，5000 元起行政与财务会签',
    description: '采购申请以子表填写物品、规格、数量与单价，金额自动合计；部门主管审批后，合计金额达到 5000 元的申请再由“行政主管”与“财务主管”会签（角色没有时自动创建，两方都同意才通过）。含申请列表与采购统计仪表盘。附 10 条示例申请。',
  },
];

/** Builds one built-in template into the context's engine; a failure names the template. */
export async function buildBuiltInTemplate(ctx: TemplateBuildContext, code: string): Promise<BuiltTemplate> {
  const template = BUILT_IN_TEMPLATES.find((t) => t.code === code);
  if (!template) throw new AppError('BuiltinTemplateFailed', { detail: { template: code, step: '查找模板' } });
  try {
    return await template.build(ctx);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BuiltinTemplateFailed', { detail: { template: template.name, step: error instanceof Error ? error.message : String(error) } });
  }
}
