import { Button, Card, Drawer, Flex, Input, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BOARD_FILTER_KINDS, REPORT_LIMITS, STATIC_WIDGET_TYPES, type BoardDefinition, type BoardFilter, type BoardFilterKind, type Widget } from '@tritium/shared/report/index';
import { useFields } from './widget-editor.tsx';

// The data types a kind of board filter applies to.
const KIND_TYPES: Record<BoardFilterKind, readonly string[]> = {
  dateRange: ['datetime'],
  department: ['unit'],
  field: ['string', 'text', 'int', 'decimal', 'bool', 'user', 'unit', 'reference'],
};

/** The board's filters: each a kind, a name, and the field of every widget it applies to. */
export function FilterSettings({ open, board, onClose, onChange }: { open: boolean; board: BoardDefinition; onClose: () => void; onChange: (filters: BoardFilter[]) => void }) {
  const { t } = useTranslation();
  const dataWidgets = board.widgets.filter((w) => !STATIC_WIDGET_TYPES.includes(w.type) && w.source);
  const set = (i: number, next: BoardFilter) => onChange(board.filters.map((f, j) => (j === i ? next : f)));
  const add = () => {
    let n = board.filters.length + 1;
    while (board.filters.some((f) => f.id === `f${n}`)) n++;
    onChange([...board.filters, { id: `f${n}`, kind: 'dateRange', label: t('dashboard.filterKinds.dateRange'), bindings: [] }]);
  };
  return (
    <Drawer open={open} onClose={onClose} size={520} title={t('dashboard.designer.filtersTitle')}>
      <Flex vertical gap="middle">
        {board.filters.map((f, i) => (
          <Card
            key={f.id}
            size="small"
            title={
              <Flex gap={4}>
                <Select
                  aria-label={t('dashboard.designer.filterKind')}
                  style={{ width: 120 }}
                  value={f.kind}
                  options={BOARD_FILTER_KINDS.map((k) => ({ value: k, label: t(`dashboard.filterKinds.${k}`) }))}
                  onChange={(kind) => set(i, { ...f, kind, bindings: [] })}
                />
                <Input aria-label={t('dashboard.designer.filterLabel')} value={f.label} maxLength={50} onChange={(e) => set(i, { ...f, label: e.target.value })} />
              </Flex>
            }
            extra={<Button type="text" danger aria-label={t('dashboard.designer.remove')} icon={<DeleteOutlined />} onClick={() => onChange(board.filters.filter((_, j) => j !== i))} />}
          >
            <Typography.Text type="secondary">{t('dashboard.designer.bindings')}</Typography.Text>
            {dataWidgets.map((w) => (
              <Binding key={w.id} widget={w} filter={f} onChange={(field) => set(i, { ...f, bindings: [...f.bindings.filter((b) => b.widgetId !== w.id), ...(field ? [{ widgetId: w.id, field }] : [])] })} />
            ))}
          </Card>
        ))}
        {board.filters.length < REPORT_LIMITS.filters && (
          <Button type="dashed" icon={<PlusOutlined />} onClick={add}>
            {t('dashboard.designer.addFilter')}
          </Button>
        )}
      </Flex>
    </Drawer>
  );
}

function Binding({ widget, filter, onChange }: { widget: Widget; filter: BoardFilter; onChange: (field: string | undefined) => void }) {
  const { t } = useTranslation();
  const fields = useFields(widget.source?.schemaCode);
  const options = (fields.data?.fields ?? []).filter((f) => !f.code.includes('.') && KIND_TYPES[filter.kind].includes(f.dataType)).map((f) => ({ value: f.code, label: f.title || f.code }));
  return (
    <Flex align="center" gap="small" style={{ marginTop: 6 }}>
      <Typography.Text style={{ width: 140 }} ellipsis>
        {widget.title || t(`dashboard.types.${widget.type}`)}
      </Typography.Text>
      <Select
        allowClear
        aria-label={t('dashboard.designer.bindField', { widget: widget.title || widget.id })}
        style={{ flex: 1 }}
        placeholder={t('dashboard.designer.notBound')}
        value={filter.bindings.find((b) => b.widgetId === widget.id)?.field}
        options={options}
        onChange={(field?: string) => onChange(field)}
      />
    </Flex>
  );
}
