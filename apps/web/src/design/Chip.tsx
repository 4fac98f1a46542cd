import type { ReactNode } from 'react';
import styles from './Chip.module.css';
import { Icon } from './Icon';

export interface ChipProps {
  readonly children: ReactNode;
  /** A colour swatch before the text (a tag's colour). */
  readonly color?: string | null;
  /** When given, a remove button labelled `removeLabel` follows the text. */
  readonly onRemove?: () => void;
  readonly removeLabel?: string;
}

/** A label on an entity: a tag, a term, an owner, a domain. */
export function Chip({ children, color, onRemove, removeLabel }: ChipProps) {
  return (
    <span className={styles.chip}>
      {color ? <span className={styles.dot} style={{ background: color }} aria-hidden="true" /> : null}
      {children}
      {onRemove ? (
        <button type="button" className={styles.remove} onClick={onRemove} aria-label={removeLabel}>
          <Icon name="close" size={14} />
        </button>
      ) : null}
    </span>
  );
}
