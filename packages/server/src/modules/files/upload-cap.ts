import { contracts, UPLOAD_LIMITS_MB } from '@tritium/shared';
import { AppError, parameterError } from '../../lib/app-error.ts';
import type { NodeViewer } from '../function-node/function-node.policy.ts';
import { getFormNodeOrThrow } from '../form-design/form-access.ts';
import { findFormSchema } from '../form-design/form-design.repo.ts';
import { definitionOf } from '../form-design/form-design.service.ts';
import { walkControls } from '../form-design/form-model.ts';
import { isFileControl } from './file-controls.ts';
import type { FileExecutor } from './files.repo.ts';

// The cap of one upload (domain.md §9, docs/decisions/0008): the scene's, lowered by the published file control's
// maxUploadSize when the upload names its form and control, never above UPLOAD_LIMITS_MB.max.

export const MB = 1024 * 1024;

export interface UploadTarget {
  schemaCode?: string;
  controlCode?: string;
}

/** The control's maxUploadSize in MB (null when it sets none); 777 for a control that is not a published file control. */
async function controlCapMb(edb: FileExecutor, viewer: NodeViewer, schemaCode: string, controlCode: string): Promise<number | null> {
  const node = await getFormNodeOrThrow(edb, viewer, schemaCode, 'open');
  const row = await findFormSchema(edb, node.code);
  if (!row?.published) throw new AppError('FormNotPublished', { detail: { schemaCode: node.code } });
  let found: Record<string, unknown> | undefined;
  walkControls(definitionOf(row.published).controls, ({ control, type }) => {
    if (control.code === controlCode && isFileControl(type)) found = control.options as Record<string, unknown>;
  });
  if (!found) throw parameterError([{ path: 'controlCode', message: '表单没有这个文件控件' }]);
  const mb = found.maxUploadSize;
  return typeof mb === 'number' && mb > 0 ? mb : null;
}

/** The byte cap of an upload to `scene`, for the control named (if any). */
export async function uploadCapBytes(edb: FileExecutor, viewer: () => Promise<NodeViewer>, scene: contracts.FileScene, target: UploadTarget): Promise<number> {
  const sceneMb = contracts.UPLOAD_SCENES[scene].maxSizeMb;
  if (!target.schemaCode && !target.controlCode) return Math.min(sceneMb, UPLOAD_LIMITS_MB.max) * MB;
  if (!target.schemaCode || !target.controlCode) {
    throw parameterError([{ path: target.schemaCode ? 'controlCode' : 'schemaCode', message: 'schemaCode 与 controlCode 须同时给出' }]);
  }
  const controlMb = await controlCapMb(edb, await viewer(), target.schemaCode, target.controlCode);
  return Math.min(sceneMb, controlMb ?? sceneMb, UPLOAD_LIMITS_MB.max) * MB;
}
