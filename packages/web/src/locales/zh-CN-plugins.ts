// zh-CN of the plugin management page of the admin console and the plugin control (issue 44; docs/decisions/0123). Joined into zh-CN-workbench.ts under `plugins`.
export const zhCNPlugins = {
  title: '插件管理',
};
