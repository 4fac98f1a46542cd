import type { ButtonHTMLAttributes } from 'react';
import styles from './Button.module.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  readonly variant?: 'primary' | 'secondary' | 'ghost';
  readonly size?: 'normal' | 'small';
}

/** The one button: a native <button>, so it is focusable and activates with Enter and Space. */
export function Button({ variant = 'secondary', size = 'normal', className, type, ...rest }: ButtonProps) {
  const classes = [
    styles.button,
    variant === 'primary' ? styles.primary : '',
    variant === 'ghost' ? styles.ghost : '',
    size === 'small' ? styles.small : '',
    className ?? '',
  ];
  return <button type={type ?? 'button'} className={classes.filter(Boolean).join(' ')} {...rest} />;
}
