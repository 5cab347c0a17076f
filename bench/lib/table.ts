/**
 * Plain-text tables for the benchmark's output.
 */

/** A column: its header, and whether values are right-aligned (numbers) or left-aligned. */
export interface Column {
  header: string;
  align: 'left' | 'right';
}

/**
 * Formats rows of already-formatted cells as an aligned table with a rule under the header.
 * Returns the lines (no trailing newline).
 *
 * @example
 * formatTable([{ header: 'peer', align: 'left' }, { header: 'ns', align: 'right' }], [['json', '812.0']]);
 * // ['peer  ns', '----  -----', 'json  812.0'] (aligned)
 */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    columns
      .map((c, i) => {
        const cell = cells[i] ?? '';
        return c.align === 'right' ? cell.padStart(widths[i]) : cell.padEnd(widths[i]);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/**
 * A number with `digits` decimals, or '—' when it is not finite.
 *
 * @example
 * fixed(12.345, 1); // '12.3'
 */
export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/**
 * A ratio with three significant digits at most, such as `41.2×`, or '—'.
 *
 * @example
 * ratio(1764.8 / 125.4); // '14.1×'
 */
export function ratio(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

/**
 * An integer with thousands separators.
 *
 * @example
 * grouped(10000); // '10,000'
 */
export function grouped(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
