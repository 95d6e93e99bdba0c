import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, DialectName } from '~/db/schema';

/** The signed-in user as every layer sees it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
}

/** What every service receives first (STYLE §3): tests pass a fresh database and a fixed clock. */
export interface ServiceContext {
  db: Kysely<Database>;
  dialect: DialectName;
  user: SessionUser | null;
  log: Logger;
  now: () => Date;
}
