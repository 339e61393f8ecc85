import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { openLiveStream } from '../../lib/live-events.ts';
import { messageKeys } from './message-api.ts';

// Query groups the live events refresh (their owners' keys start with these).
const TODO_KEYS = [['flow-center'], ['remind']] as const;
const JOB_KEYS = [['data-port']] as const;

/**
 * Holds the live stream while the workbench is open (issue 20): a new message refreshes the bell and the message
 * lists, a to-do change the flow center's counts and lists, a job's progress the import/export task lists. A
 * reconnect refreshes everything it covers, in case the stream missed a change that is not a message.
 */
export function useLiveEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const refresh = (keys: readonly (readonly string[])[]) => keys.forEach((queryKey) => void client.invalidateQueries({ queryKey }));
    let opened = false;
    const stream = openLiveStream(
      (e) => {
        if (e.event === 'message') refresh([messageKeys.all]);
        else if (e.event === 'todos') refresh(TODO_KEYS);
        else if (e.event === 'job') refresh(JOB_KEYS);
      },
      {
        onOpen: () => {
          if (opened) refresh([messageKeys.all, ...TODO_KEYS, ...JOB_KEYS]);
          opened = true;
        },
      },
    );
    return () => stream.stop();
  }, [client]);
}
