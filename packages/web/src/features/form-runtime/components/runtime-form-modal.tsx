import { useCallback, useRef } from 'react';
import { Drawer, Modal } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { FORM_MODAL_DEFAULT_SIZE, type FormScene } from '@tritium/shared/constants/form';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import { runtimeApi, runtimeKeys } from '../api/runtime-api.ts';
import type { Device, FormMode } from '../fields/field-types.ts';
import { RuntimeForm } from './runtime-form.tsx';
import { useConfirmDiscard } from './use-confirm-discard.ts';

export interface OpenForm {
  schemaCode: string;
  objectId?: string;
  mode: FormMode;
  /** A new record's values to start from (a kanban column's value, a calendar day), over the form's defaults. */
  initial?: Record<string, unknown>;
  /** The form scene it opens in (a Gantt chart's new task: GanttCreateNode). */
  scene?: FormScene;
}

/** A record's page in a mode (Print: the clean page for the browser's print dialog). */
export const formPageUrl = (schemaCode: string, objectId?: string | null, mode?: FormMode) =>
  `${FORM_RUNTIME_PATH}/${encodeURIComponent(schemaCode)}${objectId ? `/${encodeURIComponent(objectId)}` : ''}${mode ? `?mode=${mode}` : ''}`;
export const printUrl = (schemaCode: string, objectId: string) => formPageUrl(schemaCode, objectId, 'Print');

/** The form over the page (ui.md: a modal of the form's size on a PC, full screen on a phone). */
export function RuntimeFormModal({ open, device, onChange }: { open: OpenForm | null; device: Device; onChange: (next: OpenForm | null) => void }) {
  const setting = useQuery({ queryKey: runtimeKeys.form(open?.schemaCode ?? ''), queryFn: () => runtimeApi.loadForm(open!.schemaCode), enabled: !!open });
  const attributes = setting.data?.definition.attributes;
  const close = () => onChange(null);
  // Esc, ✕ and a click beside the form ask first when the form holds unsaved edits, as its own 关闭 does.
  const unsaved = useRef(false);
  const trackDirty = useCallback((dirty: boolean) => {
    unsaved.current = dirty;
  }, []);
  const confirmDiscard = useConfirmDiscard();
  const requestClose = () => confirmDiscard(unsaved.current, close);
  const body = open && (
    <RuntimeForm
      key={`${open.objectId ?? 'new'}`}
      schemaCode={open.schemaCode}
      objectId={open.objectId}
      mode={open.mode}
      initial={open.objectId ? undefined : open.initial}
      scene={open.scene}
      device={device}
      onOpen={(objectId, mode) => onChange({ schemaCode: open.schemaCode, objectId: objectId ?? undefined, mode })}
      onClose={close}
      onDirtyChange={trackDirty}
      onPrint={(objectId) => window.open(printUrl(open.schemaCode, objectId), '_blank', 'noopener')}
    />
  );
  if (device === 'phone') {
    return (
      <Drawer open={!!open} onClose={requestClose} placement="bottom" height="100%" closable={false} styles={{ body: { padding: 0 } }} destroyOnHidden>
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={!!open}
      onCancel={requestClose}
      footer={null}
      width={attributes?.modalWidth ?? FORM_MODAL_DEFAULT_SIZE.width}
      destroyOnHidden
      // The form's height at least, more when the window has room; the body scrolls inside.
      styles={{ body: { height: `max(${attributes?.modalHeight ?? FORM_MODAL_DEFAULT_SIZE.height}px, 75vh)`, display: 'flex', flexDirection: 'column' }, container: { padding: 0, overflow: 'hidden' } }}
      closable
      title={null}
    >
      {body}
    </Modal>
  );
}
