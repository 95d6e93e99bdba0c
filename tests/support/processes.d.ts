// Types for processes.js (plain JavaScript so the operator scripts share it).
import type { ChildProcess } from 'node:child_process';

export function freePort(): Promise<number>;

export interface WaitOptions {
  child?: ChildProcess;
  timeoutMs?: number;
  intervalMs?: number;
  accept?: (res: Response) => boolean;
  output?: () => string;
}
export function waitUntilUp(url: string, options?: WaitOptions): Promise<void>;

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  /** The server process, for reading its memory from /proc. */
  pid: number;
  child: ChildProcess;
  startMs: number;
  output: () => string;
  /** Sends a signal and resolves with the exit code. */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}
export function startServerProcess(options?: {
  env?: Record<string, string>;
  nodeFlags?: string[];
  waitPath?: string;
  accept?: (res: Response) => boolean;
  intervalMs?: number;
  quiet?: boolean;
}): Promise<ServerProcess>;

export function scratchPostgres(adminUrl: string, prefix?: string): Promise<{ url: string; drop(): Promise<void> }>;
