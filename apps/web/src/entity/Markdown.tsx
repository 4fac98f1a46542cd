import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';
import styles from './Markdown.module.css';

/**
 * A description as its markdown reads: rendered by `marked` (GitHub-flavoured), then sanitized by
 * DOMPurify (no script, no event handler, no javascript: link), so metadata from any source is safe to
 * show. Links open in a new tab without giving it this page.
 */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: false });
  const clean = DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
  const template = document.createElement('template');
  template.innerHTML = clean;
  for (const link of template.content.querySelectorAll('a[href]')) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  }
  return template.innerHTML;
}

export function Markdown({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={styles.markdown} dangerouslySetInnerHTML={{ __html: html }} />;
}
