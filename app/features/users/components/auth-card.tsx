import type { ReactNode } from 'react';

/** The centred card every account screen sits in. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10">
      <div className="card border border-base-300 bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          <h1 className="text-center text-3xl font-bold tracking-tight">{title}</h1>
          {children}
          {footer ? <p className="text-center text-sm">{footer}</p> : null}
        </div>
      </div>
    </section>
  );
}

/** The reason a form failed, in red under it (docs/product.md#messages), announced when it appears. */
export function FormError({ message, id = 'form-error' }: { message?: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-center text-sm font-medium text-error" data-testid="form-error">
      {message}
    </p>
  );
}
