// Types for scripts/cluster-load.js, which the cluster tests import.
export interface LoadUser {
  email: string;
  token: string;
  cookie: string;
}

export interface LoadRoute {
  name: string;
  weight: number;
  kind: 'read' | 'write';
  expect?: number[];
  request(): { method: string; path: string; headers?: Record<string, string>; body?: string };
  check?(status: number, body: string): void;
}

export interface RouteResult {
  route: string;
  kind: string;
  statuses: Record<string, number>;
  answered: number;
  unexpected: number;
  errors: number;
  /** Transport errors by kind (ECONNRESET, a timeout…). */
  errorKinds: Record<string, number>;
  result: { latency: { p50: number; p99: number } };
}

export function signUpUser(url: string, email: string, name?: string): Promise<LoadUser>;
export function runRoutes(url: string, routes: LoadRoute[], options?: { connections?: number; duration?: number; during?: () => Promise<void> }): Promise<RouteResult[]>;
export function formatTable(rows: RouteResult[], seconds: number): { table: string; answered: number; errors: number; unexpected: number };
