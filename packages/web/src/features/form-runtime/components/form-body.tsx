import { Card, Flex, Tabs, Typography, theme } from 'antd';
import type { RuntimeControl } from '../fields/field-types.ts';
import type { RuntimeNode } from '../model/runtime-tree.ts';
import { FieldCell, type TitlePlacement } from './field-cell.tsx';
import { isHidden } from '../model/form-values.ts';
import { useRuntimeForm } from './form-context.ts';
import { SubTable } from './sub-table.tsx';

/** The system column a system control shows (creator → CreatedBy, ...), if it is one. */
export function systemFieldOf(control: RuntimeControl): string | undefined {
  const column = control.type.column;
  return column && 'systemField' in column ? column.systemField : undefined;
}

// The description is stored as sanitised HTML; the runtime shows its text.
const plain = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

function DisplayOnly({ control }: { control: RuntimeControl }) {
  const { token } = theme.useToken();
  if (control.type.key === 'groupTitle') {
    return (
      <Typography.Title level={5} style={{ margin: 0, paddingBottom: token.paddingXS, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        {control.label}
      </Typography.Title>
    );
  }
  if (control.type.key === 'description') {
    const content = typeof control.options.content === 'string' ? plain(control.options.content) : '';
    return content ? <Typography.Paragraph style={{ margin: 0 }}>{content}</Typography.Paragraph> : null;
  }
  return <Typography.Text>{control.label}</Typography.Text>;
}

const DISPLAY_ONLY = new Set(['groupTitle', 'description', 'label']);

function Field({ control, title }: { control: RuntimeControl; title: TitlePlacement }) {
  const state = useRuntimeForm();
  if (DISPLAY_ONLY.has(control.type.key)) return <DisplayOnly control={control} />;
  const systemField = systemFieldOf(control);
  const value = systemField ? state.system[systemField] : state.form.values[control.code];
  return <FieldCell control={control} value={value} onChange={(next) => state.setValue(control.code, next)} errorKey={`values.${control.code}`} title={title} />;
}

function NodeView({ node, title }: { node: RuntimeNode; title: TitlePlacement }) {
  const state = useRuntimeForm();
  const { token } = theme.useToken();
  if (isHidden(node.control, state.form)) return null;
  if ((node.kind === 'field' || node.kind === 'grid') && state.permissionOf?.(node.control.code).visible === false) return null;
  switch (node.kind) {
    case 'field':
      return <Field control={node.control} title={title} />;
    case 'grid':
      return <SubTable control={node.control} columns={node.columns} />;
    case 'layout': {
      const columns = state.device === 'phone' ? 1 : Number(node.control.options.columns ?? 2);
      return (
        <div role="group" aria-label={node.control.label} style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: token.padding }}>
          {node.children.map((child, index) => (
            <NodeView key={index} node={child} title={columns > 1 ? 'above' : title} />
          ))}
        </div>
      );
    }
    case 'tab':
      // Print shows every pane, one after another: a sheet of paper has no tabs.
      if (state.mode === 'Print') {
        return (
          <Flex vertical gap={token.padding}>
            {node.panes.map((pane, index) => (
              <Card key={index} size="small" title={pane.title}>
                <NodeList nodes={pane.children} title={title} />
              </Card>
            ))}
          </Flex>
        );
      }
      return <Tabs items={node.panes.map((pane, index) => ({ key: String(index), label: pane.title, children: <NodeList nodes={pane.children} title={title} />, forceRender: true }))} />;
  }
}

export function NodeList({ nodes, title }: { nodes: readonly RuntimeNode[]; title: TitlePlacement }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={token.padding}>
      {nodes.map((node, index) => (
        <NodeView key={`${node.control.code}-${index}`} node={node} title={title} />
      ))}
    </Flex>
  );
}

/** The form's controls in the open mode: titles beside the fields on a PC, above them on a phone. */
export function FormBody({ tree }: { tree: readonly RuntimeNode[] }) {
  const state = useRuntimeForm();
  return <NodeList nodes={tree} title={state.device === 'phone' ? 'above' : 'beside'} />;
}
