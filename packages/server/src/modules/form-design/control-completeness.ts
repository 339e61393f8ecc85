import type { contracts } from '@tritium/shared';
import { errorText } from '@tritium/shared';
import { controlMissingSettings } from '@tritium/shared/controls/index';
import { AppError } from '../../lib/app-error.ts';
import { walkControls } from './form-model.ts';

// A control the registry says is incomplete (a formula with no expression, an association with no target form, a
// rollup with no source) is refused at publishing rather than published empty and shown as "--"
// (docs/decisions/0029). The designer's list of incomplete controls (formdesign/incomplete) reads the same registry.

/** Refuses (240100) a definition with controls still missing required settings; detail.issues names each. */
export function assertControlsComplete(definition: contracts.FormDefinition): void {
  const issues: { path: string; field: string; displayName: string; settings: string[]; message: string }[] = [];
  walkControls(definition.controls, ({ control, type, gridCode }) => {
    const missing = controlMissingSettings(type, control.options);
    if (!missing.length) return;
    const displayName = String((control.options as { displayName?: string }).displayName ?? type.displayName['zh-CN']);
    const place = gridCode ? `${gridCode}.${control.code}` : control.code;
    const detail = { field: control.code, displayName, settings: [...missing] };
    for (const setting of missing) {
      issues.push({ path: `controls.${place}.options.${setting}`, ...detail, message: errorText('FormControlIncomplete', 'zh-CN', detail) });
    }
  });
  if (!issues.length) return;
  const first = issues[0]!;
  throw new AppError('FormControlIncomplete', {
    message: first.message,
    detail: { field: first.field, displayName: first.displayName, settings: first.settings, issues },
  });
}
