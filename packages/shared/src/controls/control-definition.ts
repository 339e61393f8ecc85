/**
 * One control in a saved form definition, and the list the designer saves: `{ type, code, options }`,
 * options checked (and completed with defaults) by the control type's own schema. Sub-tables and layouts
 * hold `controls`, tabs hold `panes`.
 */
import { z } from 'zod';
import { SYSTEM_FIELDS } from '../constants/form.ts';
import { TEXT_BOX_MAX_LENGTH } from '../constants/limits.ts';
import { controlCodeSchema } from './options/base.ts';
import { controlTypeByKey, type ControlOptions } from './registry.ts';
import { droppedKeys } from './unknown-keys.ts';
import { CONTROL_TYPE_KEYS, type ControlTypeKey } from './types.ts';
import { CONTROL_ADD_MESSAGES, verifyControlAdd, type ControlContainerKind } from './verify-control-add.ts';

export interface TabPane {
  title: string;
  controls: ControlDefinition[];
}

export type ControlDefinition = {
  [K in ControlTypeKey]: {
    type: K;
    code: string;
    options: ControlOptions<K>;
    controls?: ControlDefinition[];
    panes?: TabPane[];
  };
}[ControlTypeKey];

/** What the designer sends: options may be partial, defaults fill the rest. */
export interface ControlDefinitionInput {
  type: string;
  code: string;
  options?: unknown;
  controls?: ControlDefinitionInput[];
  panes?: { title: string; controls?: ControlDefinitionInput[] }[];
}

const systemFieldNames = new Set(SYSTEM_FIELDS.map((field) => field.toLowerCase()));

const TabPaneSchema = z.strictObject({
  title: z.string().trim().min(1).max(TEXT_BOX_MAX_LENGTH),
  get controls() {
    return z.array(ControlDefinition).default(() => []);
  },
});

export const ControlDefinition: z.ZodType<ControlDefinition, ControlDefinitionInput> = z.lazy(() =>
  z
    // Strict, and options compared with what their schema kept: a key the contract lacks is refused with its path
    // rather than dropped without a word (docs/decisions/0029).
    .strictObject({
      type: z.enum(CONTROL_TYPE_KEYS),
      code: controlCodeSchema,
      options: z.unknown().optional(),
      controls: z.array(ControlDefinition).optional(),
      panes: z.array(TabPaneSchema).optional(),
    })
    .transform((control, ctx) => {
      const type = controlTypeByKey(control.type);
      const options = type.options.safeParse(control.options ?? {});
      if (!options.success) {
        for (const issue of options.error.issues) {
          const path = ['options', ...issue.path];
          ctx.issues.push({ code: 'custom', message: issue.message, path, input: control.options });
        }
      }
      if (options.success) {
        for (const path of droppedKeys(control.options ?? {}, options.data)) {
          ctx.issues.push({ code: 'custom', message: `无法识别的设置项“${String(path[path.length - 1])}”`, path: ['options', ...path], input: control.options });
        }
      }
      const problem = (path: string, message: string) =>
        ctx.issues.push({ code: 'custom', path: [path], message, input: control });
      if (control.controls && type.children !== 'controls') problem('controls', '该控件不能包含其他控件');
      if (control.panes && type.children !== 'panes') problem('panes', '只有标签页可以包含页签');
      const systemField = type.column && 'systemField' in type.column ? type.column.systemField : undefined;
      if (systemField && control.code !== systemField) problem('code', `该控件的编码须为${systemField}`);
      if (!systemField && type.column && systemFieldNames.has(control.code.toLowerCase())) {
        problem('code', `编码不能使用系统字段名${control.code}`);
      }
      if (!options.success) return z.NEVER;
      return {
        type: control.type,
        code: control.code,
        options: options.data,
        ...(type.children === 'controls' ? { controls: control.controls ?? [] } : {}),
        ...(type.children === 'panes' ? { panes: control.panes ?? [] } : {}),
      } as ControlDefinition;
    }),
);

export interface FormControlsProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Checks a whole list the way the designer checks each drop: placement, one-per-form and upper limits
 * (by adding the controls one by one in order), and codes unique within the main table and within
 * each sub-table.
 */
export function checkFormControls(controls: readonly ControlDefinition[]): FormControlsProblem[] {
  const problems: FormControlsProblem[] = [];
  const countByType: Record<string, number> = {};
  let total = 0;
  const walk = (
    list: readonly ControlDefinition[],
    path: (string | number)[],
    target: ControlContainerKind[],
    codes: Set<string>,
  ) => {
    list.forEach((control, index) => {
      const at = [...path, index];
      const result = verifyControlAdd({ total, countByType }, control.type, target);
      if (result !== 'success') problems.push({ path: at, message: CONTROL_ADD_MESSAGES[result] });
      total += 1;
      countByType[control.type] = (countByType[control.type] ?? 0) + 1;
      const code = control.code.toLowerCase();
      if (codes.has(code)) problems.push({ path: [...at, 'code'], message: `编码${control.code}重复` });
      codes.add(code);
      if (control.controls) {
        const inner = control.type === 'gridView' ? 'subTable' : 'layout';
        walk(control.controls, [...at, 'controls'], [...target, inner], inner === 'subTable' ? new Set() : codes);
      }
      control.panes?.forEach((pane, paneIndex) =>
        walk(pane.controls, [...at, 'panes', paneIndex, 'controls'], [...target, 'tab'], codes),
      );
    });
  };
  walk(controls, [], ['root'], new Set());
  return problems;
}

/** The controls of a form as the designer saves them, checked as a whole. */
export const ControlDefinitionList = z.array(ControlDefinition).superRefine((controls, ctx) => {
  for (const problem of checkFormControls(controls)) {
    ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }
});
