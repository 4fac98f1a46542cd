import type { ReactNode } from 'react';
import styles from './Card.module.css';

/** A titled panel; the title is a heading of the given level, so the page outline stays right. */
export function Card({
  title,
  level = 2,
  children,
  className,
}: {
  title?: string;
  level?: 2 | 3;
  children: ReactNode;
  className?: string;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className={[styles.card, className ?? ''].join(' ')}>
      {title ? <Heading className={styles.title}>{title}</Heading> : null}
      {children}
    </section>
  );
}
