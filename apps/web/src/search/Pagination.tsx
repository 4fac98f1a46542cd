import { Link } from '@tanstack/react-router';
import styles from './Pagination.module.css';

/** The page numbers around the current one, with the first and last. */
export function pageWindow(page: number, pages: number): number[] {
  const around = [1, page - 2, page - 1, page, page + 1, page + 2, pages];
  return [...new Set(around.filter((n) => n >= 1 && n <= pages))].sort((a, b) => a - b);
}

/** Links to other pages of the results (links, so each page has its URL and opens in a new tab). */
export function Pagination({
  page,
  pages,
  searchOf,
}: {
  page: number;
  pages: number;
  searchOf: (page: number) => Record<string, string | string[]>;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages of results" className={styles.nav}>
      {page > 1 ? (
        <Link to="/search" search={searchOf(page - 1) as never} rel="prev">
          Previous
        </Link>
      ) : null}
      {pageWindow(page, pages).map((n) =>
        n === page ? (
          <span key={n} aria-current="page" className={styles.current}>
            {n}
          </span>
        ) : (
          <Link key={n} to="/search" search={searchOf(n) as never} aria-label={`Page ${n}`}>
            {n}
          </Link>
        ),
      )}
      {page < pages ? (
        <Link to="/search" search={searchOf(page + 1) as never} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
