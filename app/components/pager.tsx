import { Link } from 'react-router';

/** A list's page links: previous, the first, the last and two either side of this one, next. */
export function Pager({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-10 flex justify-center">
      <div className="join">
        {page > 1 ? (
          <Link to={href(page - 1)} className="join-item btn" rel="prev">Previous</Link>
        ) : null}
        {Array.from({ length: pages }, (_, i) => i + 1)
          .filter((n) => n === 1 || n === pages || Math.abs(n - page) <= 2)
          .map((n) => (
            <Link key={n} to={href(n)} className={`join-item btn ${n === page ? 'btn-active btn-primary' : ''}`} aria-current={n === page ? 'page' : undefined}>
              {n}
            </Link>
          ))}
        {page < pages ? (
          <Link to={href(page + 1)} className="join-item btn" rel="next">Next</Link>
        ) : null}
      </div>
    </nav>
  );
}
