// zh-CN of the e-sign control, its flows and signers (issue 44; docs/decisions/0123). Joined into zh-CN-workbench.ts under `eSign`.
export const zhCNESign = {
  title: '电子签章',
};
