import { useCallback, useEffect, useRef } from 'react';
import { useInRouterContext, useNavigate } from 'react-router';
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

/** Goes to the form's own page (container mode Specified) once, then lets the caller close. */
function OpenAsPage({ url, onDone }: { url: string; onDone: () => void }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(url);
    onDone();
  }, [navigate, url, onDone]);
  return null;
}

/** OpenAsPage outside a router: the browser loads the page. */
function LoadPage({ url }: { url: string }) {
  useEffect(() => window.location.assign(url), [url]);
  return null;
}

/**
 * The form over the page (ui.md: full screen on a phone). On a PC its container mode decides (docs/decisions/0115):
 * Modal a modal of the form's size, Drawer a drawer from the right as wide, Specified the form's own page.
 */
export function RuntimeFormModal({ open, device, onChange }: { open: OpenForm | null; device: Device; onChange: (next: OpenForm | null) => void }) {
  const setting = useQuery({ queryKey: runtimeKeys.form(open?.schemaCode ?? ''), queryFn: () => runtimeApi.loadForm(open!.schemaCode), enabled: !!open });
  const attributes = setting.data?.definition.attributes;
  const close = () => onChange(null);
  const inRouter = useInRouterContext();
  const leave = useCallback(() => onChange(null), [onChange]);
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
  const width = attributes?.modalWidth ?? FORM_MODAL_DEFAULT_SIZE.width;
  if (open && attributes?.containerMode === 'Specified') {
    const url = formPageUrl(open.schemaCode, open.objectId, open.objectId ? open.mode : undefined);
    return inRouter ? <OpenAsPage url={url} onDone={leave} /> : <LoadPage url={url} />;
  }
  // The container is known once the form's settings are read.
  if (open && setting.isPending) return null;
  if (attributes?.containerMode === 'Drawer') {
    return (
      <Drawer open={!!open} onClose={requestClose} placement="right" size={width} closable={false} styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column' } }} destroyOnHidden>
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={!!open}
      onCancel={requestClose}
      footer={null}
      width={width}
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
