// The switches every headless Chromium of the platform starts with: the print job's PDF renderer (print-pdf.ts), and
// the browser the scenarios and benches drive (e2e/global-setup.ts, bench/). docs/decisions/0107.

/**
 * Playwright's own `--disable-features` list (playwright-core 1.65, chromiumSwitches.ts). Chromium keeps only the last
 * `--disable-features` switch it is given, so a list of ours replaces Playwright's: it is repeated here whole.
 * chromium-args.test.ts reads Playwright's list from the installed package and fails when an upgrade changes it.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's popup, drawn as a web page. Headless Chromium opens a window for each browser context, and each
 * window loads this popup in a renderer process of its own (about 400 chrome:// scripts and styles) although nothing
 * ever types into an address bar: a new context cost about twice the CPU of the page it was opened for.
 */
export const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];
