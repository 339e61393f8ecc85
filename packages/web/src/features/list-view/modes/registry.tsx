import { lazy, type ComponentType, type ReactNode } from 'react';
import { ApartmentOutlined, AppstoreOutlined, CalendarOutlined, EnvironmentOutlined, FieldTimeOutlined, IdcardOutlined, ProjectOutlined, ScheduleOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { ViewMode } from '@tritium/shared/constants/views';
import { CALENDAR_LAYOUTS, GANTT_DEPENDENCY_STORAGES, KANBAN_PAGE_SIZES, MAP_RADII, TIMELINE_ZOOMS, viewModeOf, type ViewModeDefinition } from '@tritium/shared/view-modes/index';
import type { ModeRuntimeProps } from './types.ts';
import { CardGrid } from './card/card-grid.tsx';
import { KanbanBoard } from './kanban/kanban-board.tsx';

// The web side of the view-mode registry (docs/decisions/0047): per mode its icon, the query its runtime reads
// through, the runtime itself and the settings that are not fields (choices and texts). The shared entry
// (@tritium/shared/view-modes) holds the settings schema and the field roles; the designer panel and the list read
// both. The list (0) and the hierarchy (6) are the list view's own tables.

/** A setting offered as a choice among values (page size, default layout, zoom, radius) or typed as text. */
export type ModeExtra = { key: string; kind: 'choice'; values: readonly (string | number)[]; label: 'pageSize' | 'layout' | 'zoom' | 'radius' | 'dependencyStorage' } | { key: string; kind: 'text'; label: 'tileUrl' };

export interface WebViewMode {
  definition: ViewModeDefinition;
  icon: ReactNode;
  /** 'table': the list view's own tables; 'page': the list's page query; 'own': calls of its own; 'none': not built. */
  query: 'table' | 'page' | 'own' | 'none';
  Runtime?: ComponentType<ModeRuntimeProps>;
  extras: readonly ModeExtra[];
  /** A view of another mode may be shown this way from the toolbar (every setting has a default). */
  switchable: boolean;
}

// The calendar carries FullCalendar: its own chunk, loaded when a calendar opens (docs/decisions/0036).
const CalendarView = lazy(() => import('./calendar/calendar-view.tsx'));
const TimelineView = lazy(() => import('./timeline/timeline-view.tsx'));
// The Gantt chart is drawn by hand in SVG (docs/decisions/0054); its own chunk all the same.
const GanttView = lazy(() => import('./gantt/gantt-view.tsx'));
// Leaflet comes with the map only.
const MapView = lazy(() => import('./map/map-view.tsx'));

const entry = (mode: number, rest: Omit<WebViewMode, 'definition'>): WebViewMode => ({ definition: viewModeOf(mode)!, ...rest });

export const WEB_VIEW_MODES: readonly WebViewMode[] = [
  entry(ViewMode.List, { icon: <UnorderedListOutlined />, query: 'table', extras: [], switchable: true }),
  entry(ViewMode.Calendar, { icon: <CalendarOutlined />, query: 'own', Runtime: CalendarView, extras: [{ key: 'layout', kind: 'choice', values: CALENDAR_LAYOUTS, label: 'layout' }], switchable: false }),
  entry(ViewMode.Timeline, { icon: <FieldTimeOutlined />, query: 'own', Runtime: TimelineView, extras: [{ key: 'zoom', kind: 'choice', values: TIMELINE_ZOOMS, label: 'zoom' }], switchable: false }),
  entry(ViewMode.Gantt, { icon: <ScheduleOutlined />, query: 'own', Runtime: GanttView, extras: [{ key: 'dependencyStorage', kind: 'choice', values: GANTT_DEPENDENCY_STORAGES, label: 'dependencyStorage' }], switchable: false }),
  entry(ViewMode.Map, { icon: <EnvironmentOutlined />, query: 'own', Runtime: MapView, extras: [{ key: 'radius', kind: 'choice', values: MAP_RADII, label: 'radius' }, { key: 'tileUrl', kind: 'text', label: 'tileUrl' }], switchable: false }),
  entry(ViewMode.Hierarchy, { icon: <ApartmentOutlined />, query: 'table', extras: [], switchable: false }),
  entry(ViewMode.Card, { icon: <IdcardOutlined />, query: 'page', Runtime: CardGrid, extras: [], switchable: true }),
  entry(ViewMode.Kanban, { icon: <ProjectOutlined />, query: 'own', Runtime: KanbanBoard, extras: [{ key: 'pageSize', kind: 'choice', values: KANBAN_PAGE_SIZES, label: 'pageSize' }], switchable: false }),
  entry(ViewMode.MobileGrid, { icon: <AppstoreOutlined />, query: 'page', Runtime: CardGrid, extras: [], switchable: true }),
];

const BY_MODE = new Map(WEB_VIEW_MODES.map((m) => [m.definition.mode as number, m]));

/** The registry's entry of a mode (the list's for an unknown number). */
export function webModeOf(mode: number): WebViewMode {
  return BY_MODE.get(mode) ?? BY_MODE.get(ViewMode.List)!;
}

/** The modes a view may be shown in from the toolbar: its own (when built and on), then the switchable ones. */
export function modesToShow(viewMode: number, modesOff: readonly number[]): number[] {
  const usable = (m: WebViewMode) => m.query !== 'none' && !modesOff.includes(m.definition.mode);
  const own = webModeOf(viewMode);
  const list = WEB_VIEW_MODES.filter((m) => m.switchable && usable(m)).map((m) => m.definition.mode as number);
  return usable(own) && !list.includes(own.definition.mode) ? [own.definition.mode, ...list] : list;
}

/** Message keys of the modes and of their field roles (locales: viewModes.modes, viewModes.roles). */
export type ModeKey = 'list' | 'calendar' | 'timeline' | 'gantt' | 'map' | 'hierarchy' | 'card' | 'kanban' | 'mobileGrid';
export type RoleKey = 'groupField' | 'titleField' | 'fields' | 'coverField' | 'startField' | 'endField' | 'colorField' | 'progressField' | 'parentField' | 'swimlanes' | 'locationField';
