/** Figures as the generated docs print them: grouped integers, fixed decimals, — for none. */
export const fmt = {
  int: (value: number) =>
    Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—',
  fixed: (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—'),
};
