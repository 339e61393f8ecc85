/**
 * The Chinese administrative divisions (province → city → county, 6-digit codes) for the area select control
 * (controls/area-select.ts): a tree for a cascader, a code's names, and whether a code fits an AreaMode.
 * The data is @vant/area-data's; importing this module loads all of it (~3,900 names), so the web loads it lazily.
 */
import { areaList } from '@vant/area-data';
import type { AreaMode } from '../constants/formats.ts';

export interface AreaNode {
  /** 6 digits: PP0000 a province, PPCC00 a city, PPCCTT a county. */
  code: string;
  name: string;
  children?: AreaNode[];
}

const { province_list: provinces, city_list: cities, county_list: counties } = areaList;

const AREA_CODE = /^\d{6}$/;
const provinceOf = (code: string) => `${code.slice(0, 2)}0000`;
const cityOf = (code: string) => `${code.slice(0, 4)}00`;

/** How many levels each mode picks. */
export const AREA_MODE_DEPTH: Readonly<Record<AreaMode, 1 | 2 | 3>> = { P: 1, 'P-C': 2, 'P-C-T': 3 };

function buildTree(): AreaNode[] {
  const byProvince = new Map<string, AreaNode>();
  const byCity = new Map<string, AreaNode>();
  for (const [code, name] of Object.entries(provinces)) byProvince.set(code, { code, name, children: [] });
  for (const [code, name] of Object.entries(cities)) {
    const city: AreaNode = { code, name, children: [] };
    byCity.set(code, city);
    byProvince.get(provinceOf(code))?.children!.push(city);
  }
  for (const [code, name] of Object.entries(counties)) byCity.get(cityOf(code))?.children!.push({ code, name });
  return [...byProvince.values()];
}

let fullTree: AreaNode[] | undefined;

function cut(nodes: AreaNode[], depth: number): AreaNode[] {
  return nodes.map(({ code, name, children }) =>
    depth > 1 && children?.length ? { code, name, children: cut(children, depth - 1) } : { code, name },
  );
}

const treesByMode = new Map<AreaMode, AreaNode[]>();

/** The divisions as a tree, as deep as the mode picks (P: provinces only; P-C: and cities; P-C-T: and counties). */
export function areaTree(mode: AreaMode = 'P-C-T'): AreaNode[] {
  let tree = treesByMode.get(mode);
  if (!tree) {
    fullTree ??= buildTree();
    tree = cut(fullTree, AREA_MODE_DEPTH[mode]);
    treesByMode.set(mode, tree);
  }
  return tree;
}

/** The level of a known code (1 province, 2 city, 3 county), or undefined for an unknown one. */
export function areaLevel(code: string): 1 | 2 | 3 | undefined {
  if (!AREA_CODE.test(code)) return undefined;
  if (code in counties) return 3;
  if (code in cities) return 2;
  if (code in provinces) return 1;
  return undefined;
}

/** The codes from the province down to this code (empty for an unknown code). */
export function areaCodePath(adcode: string): string[] {
  const level = areaLevel(adcode);
  if (!level) return [];
  return [provinceOf(adcode), cityOf(adcode), adcode].slice(0, level);
}

/** The names from the province down to this code, e.g. 440305 → ['广东省', '深圳市', '南山区']; empty when unknown. */
export function areaPath(adcode: string): string[] {
  const lists = [provinces, cities, counties];
  return areaCodePath(adcode).map((code, index) => lists[index][code]);
}

/** The full name a value stores as adname: the names joined with a space ("广东省 深圳市 南山区"). */
export function areaName(adcode: string): string {
  return areaPath(adcode).join(' ');
}

/** Whether the code names a division at exactly the mode's depth (P a province, P-C a city, P-C-T a county). */
export function isKnownAreaCode(code: string, mode: AreaMode): boolean {
  return areaLevel(code) === AREA_MODE_DEPTH[mode];
}
