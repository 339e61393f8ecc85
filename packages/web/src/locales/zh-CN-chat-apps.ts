// zh-CN of work notifications in the chat apps and the attendance step (issue 44; docs/decisions/0123). Joined into zh-CN-workbench.ts under `chatApps`.
export const zhCNChatApps = {
  title: '钉钉、企业微信、飞书工作通知与考勤',
};
