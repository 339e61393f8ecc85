import { describe, expect, it } from 'vitest';
import { downloaded, screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, pageOf } from './fixtures.ts';

/**
 * Issue 46: an app exported to a package file in engine A and imported into engine B with a progress bar, then opened
 * (docs/decisions/0130). A's app is made through the API; the export and the import happen on the screens.
 */
describe('app packages', () => {
  it('exports an app to a file in one organisation and imports it into another with progress', async () => {
    const a = await engineWithAdmin({ userName: '林澈', engineName: '甲方科技有限公司' });
    const b = await engineWithAdmin({ userName: '沈舟', engineName: '乙方贸易有限公司' });
    await appWithPublishedForm(a, {
      app: { code: 'PkgVisits', displayName: '客户拜访' },
      form: { code: 'PkgVisit', displayName: '拜访记录' },
      controls: [{ type: 'textBox', code: 'Customer', options: { displayName: '客户' } }, { type: 'number', code: 'Minutes', options: { displayName: '时长' } }],
    });
    for (const [customer, minutes] of [['华东仪器', 30], ['北辰物流', 45]] as const) {
      await api(a, 'POST', '/v1/form/action/execute', { schemaCode: 'PkgVisit', actionCode: 'Submit', values: { Customer: customer, Minutes: minutes } });
    }

    const pageA = await pageOf(a);
    await pageA.goto('/workbench');
    await pageA.getByRole('navigation', { name: '应用列表' }).getByRole('button', { name: '「客户拜访」的操作' }).click();
    await pageA.getByRole('menuitem', { name: '导出应用包' }).click();
    const exporter = pageA.getByRole('dialog', { name: '导出「客户拜访」为应用包' });
    await expect.poll(() => exporter.getByRole('button', { name: '导出并下载' }).isEnabled(), { timeout: 20_000 }).toBe(true);
    await screenshot(pageA, 'app-package-export');
    const [download] = await Promise.all([pageA.waitForEvent('download'), exporter.getByRole('button', { name: '导出并下载' }).click()]);
    expect(download.suggestedFilename()).toBe('客户拜访.tritium-app.tar.gz');
    const file = await downloaded(download);

    const pageB = await pageOf(b);
    await pageB.goto('/workbench');
    await pageB.getByRole('button', { name: '导入应用包' }).click();
    const importer = pageB.getByRole('dialog', { name: '导入应用包' });
    await importer.locator('input[type=file]').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/gzip', buffer: file });
    await expect.poll(() => importer.getByText('2 条', { exact: true }).count(), { timeout: 20_000 }).toBe(1);
    await screenshot(pageB, 'app-package-import');
    await importer.getByRole('button', { name: '安装', exact: true }).click();
    await expect.poll(() => importer.getByText('安装完成').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => importer.getByRole('progressbar', { name: '安装进度' }).getAttribute('aria-valuenow')).toBe('100');
    await screenshot(pageB, 'app-package-installed');
    await importer.getByRole('button', { name: '打开应用' }).click();
    await pageB.waitForURL('**/workbench/app/**');
    await expect.poll(() => pageB.getByText('拜访记录').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => pageB.getByText('北辰物流').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // B's app has codes of its own.
    const apps = await api<{ list: { code: string; displayName: string }[] }>(b, 'GET', '/v1/functionnode/app/list?withChildren=false');
    const installed = apps.list.find((x) => x.displayName === '客户拜访')!;
    expect(installed.code).not.toBe('PkgVisits');
  });
});
