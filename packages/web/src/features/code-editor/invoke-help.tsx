import { Collapse, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { getEngineCode } from '../../lib/session.ts';

// How an outside system calls one of the app's custom APIs (docs/decisions/0118 "App script"): POST /OpenApi/Invoke
// with ActionName (the function in `actions`) and SchemaCode (the app's code), the engine's EngineCode and a secret
// from the console's 开放接口 page in the headers; the function's answer is the envelope's ReturnData.

/** The request an outside system sends, with this engine's code and this app's code filled in. */
export function invokeExample(appCode: string, engineCode: string, origin: string, secretHint: string, nameExample: string): string {
  const body = { ActionName: 'hello', SchemaCode: appCode, name: nameExample };
  return [
    `POST ${origin}/OpenApi/Invoke`,
    `EngineCode: ${engineCode}`,
    `EngineSecret: <${secretHint}>`,
    'Content-Type: application/json',
    '',
    JSON.stringify(body, null, 2),
  ].join('\n');
}

export function InvokeHelp({ appCode }: { appCode: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const example = invokeExample(appCode, getEngineCode() ?? '', window.location.origin, t('codeEditor.invokeHelp.secretHint'), t('codeEditor.invokeHelp.nameExample'));
  return (
    <section role="note" aria-label={t('codeEditor.invokeHelp.title')} style={{ marginBottom: token.marginSM }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: token.marginXS }}>
        {t('codeEditor.invokeHelp.intro', { app: appCode })}
      </Typography.Paragraph>
      <Collapse
        size="small"
        items={[
          {
            key: 'example',
            label: t('codeEditor.invokeHelp.example'),
            children: (
              <>
                <Typography.Paragraph copyable={{ text: example }} style={{ marginBottom: token.marginXS }}>
                  <pre aria-label={t('codeEditor.invokeHelp.example')} style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{example}</pre>
                </Typography.Paragraph>
                <Typography.Text type="secondary">{t('codeEditor.invokeHelp.answer')}</Typography.Text>
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
