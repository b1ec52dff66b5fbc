// Conformance runner of the Node Extism path (tests/conformance/README.md):
// every case of the corpus on qrglue-extism, printed as
// {"paths": {"node-extism": {id: outcome}}}. The calls are awaited first,
// then tests/support/corpus.js's outcome (the one every Node path is judged by)
// reads their settled results through a synchronous facade.
import * as extism from './index.js';
import { loadCases, caseInput, jsSvgOptions, outcome } from '../tests/support/corpus.js';

// Every call outcome() makes, with the same arguments, awaited in its order.
async function settle(input, options) {
  const record = [];
  const facade = {
    QrError: extism.QrError,
    TEXT_STYLES: extism.TEXT_STYLES,
  };
  for (const name of ['png', 'svg', 'matrix', 'text']) {
    facade[name] = (...args) => {
      record.push(extism[name](...args).then((ok) => ({ ok }), (error) => ({ error })));
      throw new Error('recorded'); // outcome() catches it and goes on to its next call

    };
  }
  outcome(facade, input, options); // records the calls (their results are ignored here)
  const settled = await Promise.all(record);
  let next = 0;
  for (const name of ['png', 'svg', 'matrix', 'text']) {
    facade[name] = () => {
      const { ok, error } = settled[next++];
      if (error !== undefined) throw error;
      return ok;
    };
  }
  return outcome(facade, input, options);
}

await extism.init();
const results = {};
for (const testCase of loadCases()) {
  results[testCase.id] = await settle(caseInput(testCase), jsSvgOptions(testCase.options));
}
process.stdout.write(`${JSON.stringify({ paths: { 'node-extism': results } })}\n`);
