// Checks a report against the bench schema every host writes
// (tests/bench/README.md), plus what the browser host promises: every path it
// names has every series, the png row carries the golden digest.
import assert from 'node:assert/strict';

const ROW_KEYS = ['path', 'op', 'text_id', 'bytes', 'median_ns', 'p10_ns', 'p90_ns', 'samples', 'output_bytes', 'sha256'];

/**
 * Throws an AssertionError naming the first problem.
 * @param report the parsed JSON
 * @param expected { paths, payloadSizes, rounds, pngSha256, pngBytes }
 */
export function validateBrowserReport(report, { paths, payloadSizes, rounds, pngSha256, pngBytes }) {
  assert.equal(report.host, 'browser');
  assert.equal(typeof report.machine, 'string');
  assert.match(report.machine, /Chrom/);
  assert.equal(typeof report.quick, 'boolean');
  assert.ok(Array.isArray(report.measurements));
  for (const row of report.measurements) {
    assert.deepEqual(Object.keys(row).sort(), [...ROW_KEYS].sort(), `row keys: ${JSON.stringify(row)}`);
    const where = `${row.path} ${row.op} ${row.text_id ?? row.bytes}`;
    assert.ok(paths.includes(row.path), `${where}: unknown path`);
    for (const key of ['median_ns', 'p10_ns', 'p90_ns']) {
      assert.ok(Number.isFinite(row[key]) && row[key] > 0, `${where}: ${key} = ${row[key]}`);
    }
    assert.ok(row.p10_ns <= row.median_ns && row.median_ns <= row.p90_ns, `${where}: p10 <= median <= p90`);
    assert.equal(row.samples, rounds, `${where}: one sample per round`);
    if (row.op === 'consume' || row.op === 'produce') {
      assert.ok(Number.isInteger(row.bytes), `${where}: bytes`);
      assert.equal(row.text_id, null);
    } else {
      assert.equal(row.bytes, null, `${where}: bytes is null`);
    }
  }
  const expectedSeries = [
    ['png', 'ref-02', null], ['png-repeat', 'ref-02', null], ['noop', null, null],
    ...payloadSizes.flatMap((size) => [['consume', null, size], ['produce', null, size]]),
  ];
  for (const path of paths) {
    for (const [op, textId, bytes] of expectedSeries) {
      const rows = report.measurements.filter((r) => r.path === path && r.op === op && r.text_id === textId && r.bytes === bytes);
      assert.equal(rows.length, 1, `${path} ${op} ${textId ?? bytes}: one row`);
      const [row] = rows;
      if (op === 'png') {
        assert.equal(row.sha256, pngSha256, `${path}: png digest equals the golden one`);
        assert.equal(row.output_bytes, pngBytes);
      } else if (op === 'png-repeat') {
        assert.equal(row.output_bytes, pngBytes, `${path}: png-repeat renders the same png`);
        assert.equal(row.sha256, null);
      } else {
        assert.equal(row.sha256, null);
        assert.equal(row.output_bytes, null);
      }
    }
  }
  assert.equal(report.measurements.length, paths.length * expectedSeries.length, 'no extra rows');
}
