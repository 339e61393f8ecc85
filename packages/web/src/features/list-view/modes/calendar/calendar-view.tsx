import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Flex } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import FullCalendar from '@fullcalendar/react';
import type { CalendarRef, EventChangeInfo, EventInput, EventSourceFuncInfo } from '@fullcalendar/react';
import formaTheme from '@fullcalendar/react/themes/forma';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import listPlugin from '@fullcalendar/react/list';
import interactionPlugin from '@fullcalendar/react/interaction';
import zhCn from '@fullcalendar/react/locales/zh-cn';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/forma/theme.css';
import '@fullcalendar/react/themes/forma/palettes/blue.css';
import { CALENDAR_VIEW_MAX_RECORDS } from '@tritium/shared/constants/limits';
import { STYLE_PALETTE } from '@tritium/shared/constants/formats';
import { calendarMode, settingsOf, type CalendarLayout } from '@tritium/shared/view-modes/index';
import { runtimeKeys } from '../../../form-runtime/api/runtime-api.ts';
import { currentLocale } from '../../../../lib/i18n.ts';
import { useIsPhone } from '../../../../lib/use-is-phone.ts';
import { listViewApi } from '../../api/list-view-api.ts';
import { controlsByCode } from '../../model/cells.ts';
import { saveMove } from '../save-move.ts';
import type { ModeRuntimeProps, Row } from '../types.ts';

// The calendar (view mode 1; docs/decisions/0047) on FullCalendar 7 (React 19; month, week, day and agenda, drag and
// resize). Records come by the visible range from POST /v1/bizdata/view/calendar (at most 1,000); an event moved or
// resized saves its dates through the form runtime, and springs back when the save is refused; clicking an empty day
// opens a new record with its start date filled. This file is its own chunk (registry.tsx).

const LAYOUTS: Record<CalendarLayout, string> = { month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay', agenda: 'listWeek' };

export default function CalendarView(props: ModeRuntimeProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const isPhone = useIsPhone();
  const queryClient = useQueryClient();
  const settings = settingsOf(calendarMode, props.view.settings);
  const ref = useRef<CalendarRef>(null);
  const [tooMany, setTooMany] = useState<number | null>(null);
  const controls = useMemo(() => controlsByCode(props.definition), [props.definition]);
  const rows = useRef(new Map<string, Row>());
  const narrowing = JSON.stringify(props.narrowing);
  // A record saved anywhere (the form opened from a day, another tab's list) invalidates the form's records: the
  // calendar then asks its range again.
  const saved = useQuery({ queryKey: [...runtimeKeys.records(props.schemaCode), 'calendar', narrowing], queryFn: () => Date.now() });
  useEffect(() => {
    if (saved.dataUpdatedAt) ref.current?.getApi().refetchEvents();
  }, [saved.dataUpdatedAt]);

  const colourOf = (row: Row): string | undefined => {
    if (!settings.colorField) return undefined;
    const options = controls.get(settings.colorField)?.options as { itemColors?: Record<string, number> } | undefined;
    const index = options?.itemColors?.[String(row[settings.colorField] ?? '')];
    return index === undefined ? undefined : STYLE_PALETTE[index];
  };
  const eventOf = (row: Row): EventInput => {
    const colour = colourOf(row);
    const title = String(row[settings.titleField] ?? row.Name ?? '') || t('viewModes.calendar.untitled');
    return {
      id: row.ObjectId, title, start: String(row[settings.startField]),
      ...(settings.endField && row[settings.endField] ? { end: String(row[settings.endField]) } : {}),
      ...(colour ? { color: colour, backgroundColor: colour, borderColor: colour, textColor: '#000' } : {}),
    };
  };
  const events = async (info: EventSourceFuncInfo): Promise<EventInput[]> => {
    const answer = await listViewApi.calendar({ ...JSON.parse(narrowing), start: info.start.toISOString(), end: info.end.toISOString() });
    setTooMany(answer.hasMore ? answer.total : null);
    rows.current = new Map(answer.list.map((r) => [String(r.ObjectId), r as Row]));
    return answer.list.map((r) => eventOf(r as Row));
  };
  const onChange = async (info: EventChangeInfo) => {
    const values: Record<string, unknown> = { [settings.startField]: info.event.start?.toISOString() ?? null };
    if (settings.endField && info.event.end) values[settings.endField] = info.event.end.toISOString();
    const outcome = await saveMove(props.schemaCode, info.event.id, values);
    if (!outcome.ok) {
      info.revert();
      void message.error(t('viewModes.calendar.refused', { reason: outcome.message }));
      return;
    }
    void message.success(t('viewModes.calendar.moved'));
    void queryClient.invalidateQueries({ queryKey: runtimeKeys.records(props.schemaCode) });
  };

  return (
    <Flex vertical gap="small" role="region" aria-label={t('viewModes.calendar.title')}>
      {tooMany !== null && <Alert type="warning" showIcon title={t('viewModes.calendar.tooMany', { total: tooMany, max: CALENDAR_VIEW_MAX_RECORDS })} />}
      <FullCalendar
        key={narrowing}
        ref={ref}
        plugins={[formaTheme, dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
        locale={currentLocale() === 'en-US' ? undefined : zhCn}
        initialView={isPhone && settings.layout !== 'day' ? 'listWeek' : LAYOUTS[settings.layout]}
        headerToolbar={isPhone ? { start: 'title', end: 'prev,next' } : { start: 'prev,next today', center: 'title', end: 'dayGridMonth,timeGridWeek,timeGridDay,listWeek' }}
        footerToolbar={isPhone ? { center: 'dayGridMonth,listWeek' } : undefined}
        height={isPhone ? 'auto' : Math.max(520, props.height)}
        events={events}
        editable
        eventDisplay="block"
        eventDurationEditable={!!settings.endField}
        dateClick={props.canCreate ? (info) => props.onCreate({ [settings.startField]: info.date.toISOString() }) : undefined}
        eventClick={(info) => {
          const row = rows.current.get(info.event.id);
          if (row) props.onOpen(row);
        }}
        eventDrop={(info) => void onChange(info)}
        eventResize={(info) => void onChange(info)}
      />
    </Flex>
  );
}
