/** The app's icons, drawn inline: nothing is fetched for them. Decorative unless given a label. */
const PATHS = {
  search:
    'M10.5 3a7.5 7.5 0 0 1 5.9 12.1l4.2 4.2-1.4 1.4-4.2-4.2A7.5 7.5 0 1 1 10.5 3Zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11Z',
  close: 'm6.4 5 5.6 5.6L17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4Z',
  plus: 'M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6Z',
  table: 'M3 4h18v16H3Zm2 2v3h14V6Zm0 5v3h6v-3Zm8 0v3h6v-3Zm-8 5v2h6v-2Zm8 0v2h6v-2Z',
  chevronLeft: 'm14.6 5 1.4 1.4L10.4 12l5.6 5.6-1.4 1.4-7-7Z',
  chevronRight: 'm9.4 5 7 7-7 7L8 17.6l5.6-5.6L8 6.4Z',
  logout: 'M4 4h9v2H6v12h7v2H4Zm12.6 3.6L21 12l-4.4 4.4-1.4-1.4 2-2H10v-2h7.2l-2-2Z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18, label }: { name: IconName; size?: number; label?: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="currentColor"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
