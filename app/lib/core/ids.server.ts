import { randomUUID } from 'node:crypto';

/** Row ids: random (unguessable, so a hidden blog's id reveals nothing), 36 characters. */
export const newId = () => randomUUID();
