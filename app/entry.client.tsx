import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { preloadShown } from './components/on-demand';

// React Router's default entry, except that it first loads the code of the on-demand components
// (a flash toast or dialog, the signed-in menu) the server's HTML shows, so that hydration finds
// the same markup (docs/decisions/038). Route modules are evaluated before this module runs.
void preloadShown()
  .catch(() => {})
  .then(() => {
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <HydratedRouter />
        </StrictMode>,
      );
    });
  });
