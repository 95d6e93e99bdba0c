import type { ReactNode } from 'react';
import { SuspendedBanner } from './on-demand';
import type { Suspension } from './suspended-banner';

/**
 * A writing form for an account that may be suspended: with a suspension, the banner, and every
 * control of the form disabled (a disabled fieldset reaches nested forms' controls too).
 */
export function WhileSuspended({ suspension, children }: { suspension: Suspension | null; children: ReactNode }) {
  if (!suspension) return children;
  return (
    <>
      <SuspendedBanner suspension={suspension} />
      <fieldset disabled className="contents" data-testid="suspended-form">
        {children}
      </fieldset>
    </>
  );
}
