import { randomUUID } from 'node:crypto';

/**
 * This server process's id, sent in every answer's x-tritium-instance header: with several processes behind a load
 * balancer it says which one answered (a random id per process, not its pid).
 */
export const INSTANCE_ID = randomUUID();
export const INSTANCE_HEADER = 'x-tritium-instance';
