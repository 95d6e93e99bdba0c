// Types for scripts/cluster.js, which the cluster tests import.
import type { ChildProcess } from 'node:child_process';

export interface ClusterInstance {
  port: number;
  url: string;
  child: ChildProcess | null;
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<unknown>;
}

export interface Cluster {
  url: string;
  instances: ClusterInstance[];
  env: Record<string, string>;
  s3Port: number;
  bucket: string;
  stop(): Promise<void>;
}

export const BUCKET: string;
export function ensureNginx(say?: (line: string) => void): void;
export function dropDatabase(databaseUrl: string): Promise<unknown>;
export function startCluster(options?: {
  port?: number;
  instances?: number;
  dir?: string;
  databaseUrl?: string;
  redisUrl?: string;
  rateLimits?: 'on' | 'off';
  quiet?: boolean;
  say?: (line: string) => void;
}): Promise<Cluster>;
