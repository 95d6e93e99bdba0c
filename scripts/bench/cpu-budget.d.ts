// Types of cpu-budget.js (plain JavaScript, run by `npm run bench` without a build step).
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface StageBudget {
  stage: string;
  usPerRequest: number;
  share: number;
  top: { fn: string; usPerRequest: number }[];
}
export interface BudgetSummary {
  requests: number;
  busyUsPerRequest: number;
  idleShare: number;
  stages: StageBudget[];
}
export const STAGES: string[];
export function stageOfFrame(frame: CallFrame): string | null;
export function summariseProfile(profile: CpuProfile, window: { fromUs: number; toUs: number; requests: number }): BudgetSummary;
export function budgetTable(budgets: { name: string; summary: BudgetSummary }[]): string;
