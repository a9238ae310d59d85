import { describe, expect, it } from 'vitest';
import type { HoldEstimate } from './calibration';
import { SCANNING_CHECKS } from '../preflight/scanning-checks';
import { measuredScans, withMeasuredScan } from './live-lock-timing';

const finding = (statement_index: number, check: string, duration_ms: number, status = 'passed', sampled = false) => ({
  check,
  statement_index,
  status,
  sampled,
  duration_ms,
});

describe("a validation scan measured by the preflight's own scan", () => {
  it('takes the one passed, unsampled scanning check of a statement; none for several, a sample, a failure or other checks', () => {
    const scans = measuredScans(
      [
        finding(0, 'preflight_check_constraint', 120),
        finding(1, 'preflight_not_null', 80),
        finding(1, 'preflight_check_constraint', 90),
        finding(2, 'preflight_foreign_key', 300, 'passed', true),
        finding(3, 'preflight_validate_constraint', 200, 'failed'),
        finding(4, 'preflight_unique', 500),
        finding(5, 'preflight_validate_constraint', 60),
      ],
      SCANNING_CHECKS,
    );
    expect([...scans.entries()]).toEqual([
      [0, 120],
      [5, 60],
    ]);
  });

  it('prices a scan class at the measured scan with its measured range, and leaves other classes and scans too short to tell alone', () => {
    const scan: HoldEstimate = { ms: 80, low: 40, high: 160, cls: 'scan_check', basis: 'scan_check calibrated' };
    const measured = withMeasuredScan(scan, 200);
    expect(measured).toMatchObject({ ms: 148, low: 100, high: 200, cls: 'scan_check' });
    // SET NOT NULL's own loop over each tuple takes longer than the preflight's query; a foreign
    // key's validation, less.
    expect(withMeasuredScan({ ...scan, cls: 'scan_not_null' }, 200)).toMatchObject({ ms: 228, low: 170, high: 320 });
    expect(withMeasuredScan({ ...scan, cls: 'fk_validate' }, 200)).toMatchObject({ ms: 168, low: 110, high: 230 });
    expect(measured.basis).toMatch(/^the preflight's scan of every row took 200 ms on the target.*the calibrated figure was 80 ms \(scan_check calibrated\)$/);
    expect(withMeasuredScan(scan, 12)).toBe(scan);
    const rewrite: HoldEstimate = { ...scan, cls: 'rewrite' };
    expect(withMeasuredScan(rewrite, 200)).toBe(rewrite);
  });
});
