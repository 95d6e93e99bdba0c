// Types for scripts/font-subset.js, which vite.config.ts imports.
import type { Plugin } from 'vite';

export const FONT_CACHE_DIR: string;
export const WEIGHTS: { min: number; max: number };
export const FEATURES: string[];
export const UNICODE_RANGES: Array<[number] | [number, number]>;
export function subsetLiterata(): Promise<void>;
export function literataSubset(): Plugin;
