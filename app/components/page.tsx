import type { ReactNode } from 'react';

/** The common page body: a centred column with the screen's heading. */
export function Page({ title, children, wide = true }: { title: ReactNode; children?: ReactNode; wide?: boolean }) {
  return (
    <section className={`mx-auto w-full px-4 py-10 ${wide ? 'max-w-6xl' : 'max-w-2xl'}`}>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {children}
    </section>
  );
}
