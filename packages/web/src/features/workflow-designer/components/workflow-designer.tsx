import { useCallback, useEffect, useMemo, useState } from 'react';
import { App as AntApp, Layout, theme } from 'antd';
import { ReactFlowProvider } from '@xyflow/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FORM_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { refusedIssues, workflowDesignApi, workflowDesignKeys } from '../api/workflow-design-api.ts';
import { FlowCanvas } from '../canvas/flow-canvas.tsx';
import { Palette } from '../canvas/palette.tsx';
import { DesignContext, type FieldInfo } from '../model/design-context.ts';
import { autoLayout, defaultPosition, addActivity, forServer, insertAfter, type PaletteType, type Route, type Template } from '../model/template-model.ts';
import { useWorkflowDesigner } from '../model/use-workflow-designer.ts';
import { ActivityPanel } from '../panels/activity-panel.tsx';
import { DryRunDrawer } from '../panels/dry-run-drawer.tsx';
import { OverviewPanel } from '../panels/overview-panel.tsx';
import { RoutePanel, describeRoute } from '../panels/route-panel.tsx';
import { DesignerHeader } from './designer-header.tsx';

interface Props {
  schemaCode: string;
  formName: string;
  fields: FieldInfo[];
  initial: Template;
  publishedVersion: number | null;
  published: Template | null;
}

/** Ids of the users and departments the design names, to show their names. */
function namedIds(template: Template): string[] {
  const sources = template.activities.flatMap((a) => ('participants' in a ? a.participants.sources.flatMap((s) => ('ids' in s && s.type !== 'roles' ? s.ids : [])) : []));
  // A time limit's transfer receiver (docs/decisions/0042).
  const receivers = template.activities.flatMap((a) => ('timeLimit' in a && a.timeLimit?.transferTo ? [a.timeLimit.transferTo] : []));
  return [...new Set([...sources, ...receivers])];
}

/** The workflow designer: palette, canvas and property panel, with save, publish and the dry run. */
export function WorkflowDesigner({ schemaCode, formName, fields, initial, publishedVersion: loadedVersion, published }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message, modal } = AntApp.useApp();
  const navigate = useNavigate();
  const designer = useWorkflowDesigner(initial);
  const { state, edit, select, saved, setIssues, setDryRun, byActivity } = designer;
  const { template, selection } = state;
  const [publishedVersion, setPublishedVersion] = useState(loadedVersion);
  const [dryRunOpen, setDryRunOpen] = useState(false);

  const [names, setNames] = useState<Record<string, string>>({});
  const ids = useMemo(() => namedIds(initial), [initial]);
  const known = useQuery({ queryKey: workflowDesignKeys.names(ids), queryFn: () => workflowDesignApi.names(ids), enabled: ids.length > 0 });
  useEffect(() => {
    if (known.data) setNames((n) => ({ ...n, ...Object.fromEntries([...known.data.users, ...known.data.departments].map((u) => [u.id, u.name])) }));
  }, [known.data]);
  const remember = useCallback((units: { id: string; name: string }[]) => setNames((n) => ({ ...n, ...Object.fromEntries(units.map((u) => [u.id, u.name])) })), []);
  const context = useMemo(() => ({ schemaCode, fields, names, remember }), [schemaCode, fields, names, remember]);

  const save = useMutation({
    mutationFn: () => workflowDesignApi.save(schemaCode, forServer(template)),
    onSuccess: (r) => {
      saved(r.issues);
      if (r.issues.length) {
        select(null);
        void message.warning(t('workflowDesigner.savedWithIssues', { count: r.issues.length }));
      } else void message.success(t('workflowDesigner.saved'));
    },
  });
  const publish = useMutation({
    mutationFn: async () => {
      if (state.dirty || state.issues === null) {
        const r = await workflowDesignApi.save(schemaCode, forServer(template));
        saved(r.issues);
      }
      return workflowDesignApi.publish(schemaCode);
    },
    onSuccess: (r) => {
      setIssues([]);
      setPublishedVersion(r.version);
      if (!r.notices.length) return void message.success(t('workflowDesigner.published', { version: r.version }));
      modal.warning({
        title: t('workflowDesigner.participantsShut.title'),
        content: (
          <>
            {r.notices.map((n) => (
              <p key={n.activityCode}>{t('workflowDesigner.participantsShut.line', { activity: n.activityName, names: n.userNames.join('、') })}</p>
            ))}
            <p>{t('workflowDesigner.participantsShut.hint')}</p>
          </>
        ),
      });
    },
    onError: (error) => {
      const issues = refusedIssues(error);
      if (issues) {
        setIssues(issues);
        select(null);
        void message.error(t('workflowDesigner.publishRefused', { count: issues.length }));
      } else void message.error(error instanceof Error ? error.message : String(error));
    },
  });

  const onAdd = useCallback(
    (type: PaletteType) => {
      const name = t(`workflowDesigner.types.${type}`);
      const anchor = selection?.kind === 'activity' ? selection.code : undefined;
      const added = anchor ? insertAfter(template, anchor, type, name) : addActivity(template, type, name, defaultPosition(template));
      edit(() => added.template);
      select({ kind: 'activity', code: added.code });
    },
    [edit, select, selection, template, t],
  );
  const routeLabel = useCallback((route: Route) => describeRoute(route, fields, t), [fields, t]);

  const selectedActivity = selection?.kind === 'activity' ? template.activities.find((a) => a.code === selection.code) : undefined;
  const selectedRoute = selection?.kind === 'route' ? template.routes.find((r) => r.from === selection.from && r.to === selection.to) : undefined;
  const pane = { overflow: 'auto', background: token.colorBgContainer } as const;

  return (
    <DesignContext.Provider value={context}>
      <ReactFlowProvider>
        <Layout style={{ height: '100vh' }}>
          <DesignerHeader
            formName={formName}
            dirty={state.dirty}
            issueCount={state.issues?.length ?? null}
            publishedVersion={publishedVersion}
            saving={save.isPending}
            publishing={publish.isPending}
            onBack={() => navigate(`${FORM_DESIGNER_PATH}?schemaCode=${encodeURIComponent(schemaCode)}`)}
            onIssues={() => select(null)}
            onLayout={() => edit(autoLayout)}
            onDryRun={() => setDryRunOpen(true)}
            onSave={() => save.mutate()}
            onPublish={() => publish.mutate()}
          />
          <div style={{ display: 'flex', flex: 1, minHeight: 0 }}>
            <div style={{ ...pane, width: 168, flex: '0 0 168px', borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>
              <Palette onAdd={onAdd} />
            </div>
            <main style={{ flex: 1, minWidth: 0, position: 'relative' }}>
              <FlowCanvas designer={designer} routeLabel={routeLabel} />
            </main>
            <aside style={{ ...pane, width: 360, flex: '0 0 360px', borderInlineStart: `1px solid ${token.colorBorderSecondary}` }} aria-label={t('workflowDesigner.panel.title')}>
              {selectedActivity ? (
                <ActivityPanel key={selectedActivity.code} activity={selectedActivity} template={template} issues={byActivity.get(selectedActivity.code) ?? []} edit={edit} onRemoved={() => select(null)} />
              ) : selectedRoute ? (
                <RoutePanel key={`${selectedRoute.from}>${selectedRoute.to}`} route={selectedRoute} template={template} edit={edit} onRemoved={() => select(null)} />
              ) : (
                <OverviewPanel
                  template={template}
                  issues={state.issues}
                  publishedVersion={publishedVersion}
                  onPick={(code) => select({ kind: 'activity', code })}
                  onLoadPublished={published ? () => edit(() => published) : undefined}
                />
              )}
            </aside>
          </div>
          <DryRunDrawer open={dryRunOpen} onClose={() => setDryRunOpen(false)} template={template} result={state.dryRun} onResult={setDryRun} />
        </Layout>
      </ReactFlowProvider>
    </DesignContext.Provider>
  );
}
