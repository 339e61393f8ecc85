import { z } from 'zod';
import { FORM_CONTAINER_MODES, FORM_MODAL_DEFAULT_SIZE, SUB_TABLE_ROW_FIELDS } from '../../constants/form.ts';
import { ControlDefinition, checkFormControls } from '../../controls/control-definition.ts';
import { NodeCode, NodeName } from '../function-node/index.ts';
import { SubmitRules } from '../../formula/submit-rules.ts';

// The form definition the designer edits (domain.md §3 "Form attributes"; docs/decisions/0006-form-design.md). Its
// own file so that schema.ts can read it without importing index.ts, which re-exports both (docs/decisions/0026).

/** A form's schema code is its function node's code (a form or workflow node, 200/210/240). */
export const SchemaCode = NodeCode;

/** Form attributes (domain.md §3), less appCode/schemaCode which the node carries, plus the runtime container. */
export const FormAttributes = z.strictObject({
  displayName: NodeName,
  summary: z.string().trim().max(200, '说明最多200个字符').default(''),
  enableFormSNS: z.boolean().default(false),
  enableTask: z.boolean().default(false),
  enableDataLog: z.boolean().default(true),
  enableDataAcl: z.boolean().default(false),
  /** How a record's name (the Name column) is built: control codes in braces and literal text, e.g. "{F0001}-{SeqNo}". */
  nameSchema: z.string().trim().max(200, '数据标题规则最多200个字符').default(''),
  isTreeStructure: z.boolean().default(false),
  /** The association-query control (to this same form) that gives each record its parent. */
  treeStructureControlCode: z.string().trim().max(63).default(''),
  pcVisible: z.boolean().default(true),
  mobileVisible: z.boolean().default(true),
  /** Width of control titles on PC, in px. */
  titleWidth: z.number().int().min(40).max(400).default(120),
  containerMode: z.enum(FORM_CONTAINER_MODES).default('Modal'),
  modalWidth: z.number().int().min(320).max(2000).default(FORM_MODAL_DEFAULT_SIZE.width),
  modalHeight: z.number().int().min(200).max(2000).default(FORM_MODAL_DEFAULT_SIZE.height),
  /** Submit rules (提交校验): conditions that refuse Submit with a message or hide the button (docs/decisions/0016). */
  submitRules: SubmitRules,
});
export type FormAttributes = z.infer<typeof FormAttributes>;

const subTableRowFields = new Set(SUB_TABLE_ROW_FIELDS.map((f) => f.toLowerCase()));

/**
 * The control tree as a whole: each control by the registry (ControlDefinition), then the designer's drop checks
 * (placement, one per form, upper limits such as 7 maps), codes unique per table, and sub-table codes clear of the
 * sub-table row columns.
 */
const FormControls = z
  .array(ControlDefinition)
  .max(5000, '控件过多')
  .superRefine((controls, ctx) => {
    for (const problem of checkFormControls(controls)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    controls.forEach((control, index) =>
      control.controls?.forEach((child, childIndex) => {
        if (control.type === 'gridView' && subTableRowFields.has(child.code.toLowerCase())) {
          ctx.addIssue({ code: 'custom', path: [index, 'controls', childIndex, 'code'], message: `子表控件不能使用编码${child.code}` });
        }
      }),
    );
  });

/** What the designer edits and saves: attributes and the control tree (checked by the control registry). */
export const FormDefinition = z.strictObject({
  attributes: FormAttributes,
  controls: FormControls,
});
export type FormDefinition = z.infer<typeof FormDefinition>;
export type FormDefinitionInput = z.input<typeof FormDefinition>;
