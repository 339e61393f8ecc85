import { Flex, Skeleton, theme } from 'antd';
import { useSearchParams } from 'react-router';
import { DesignerResult } from './components/designer-result.tsx';
import { FormDesigner } from './components/form-designer.tsx';
import { useFormDesignLoad } from './hooks/use-form-design-load.ts';

function DesignerSkeleton() {
  const { token } = theme.useToken();
  return (
    <Flex vertical style={{ height: '100vh' }}>
      <Skeleton.Input active block style={{ height: 56 }} />
      <Flex gap="middle" style={{ flex: 1, padding: token.padding }}>
        <Skeleton active paragraph={{ rows: 12 }} style={{ width: 240 }} />
        <Skeleton active paragraph={{ rows: 10 }} style={{ flex: 1 }} />
        <Skeleton active paragraph={{ rows: 8 }} style={{ width: 320 }} />
      </Flex>
    </Flex>
  );
}

/** /form/designer?schemaCode=<code>: the form designer for one form (or workflow) node. */
export function FormDesignerPage() {
  const [params] = useSearchParams();
  const schemaCode = params.get('schemaCode') ?? '';
  const load = useFormDesignLoad(schemaCode);
  if (!schemaCode) return <DesignerResult />;
  if (load.isError) return <DesignerResult error={load.error} onRetry={() => void load.refetch()} />;
  if (!load.data) return <DesignerSkeleton />;
  return <FormDesigner key={schemaCode} schemaCode={schemaCode} loaded={load.data} reload={async () => (await load.refetch()).data} />;
}
