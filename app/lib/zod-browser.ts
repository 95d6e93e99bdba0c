import { z } from 'zod';

// Zod probes `Function('')` to decide whether to compile its parsers; our CSP forbids eval
// (docs/decisions/005-security-baseline.md), so in the browser it runs without the probe.
// Imported first by app/root.tsx: React Router evaluates the root route module before any
// other route module (and before entry.client), so this runs before any schema is used.
if (typeof document !== 'undefined') z.config({ jitless: true });
