import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectProgressMode } from '../../../src/cli/progress.js';

test('progress mode: listr2 only on a terminal that reports its width', () => {
  const table: Array<[string, { isTTY?: boolean; columns?: number }, NodeJS.ProcessEnv, boolean, boolean, string]> = [
    ['a sized terminal', { isTTY: true, columns: 80 }, {}, false, false, 'fancy'],
    ['a terminal without a size (script -c)', { isTTY: true, columns: 0 }, {}, false, false, 'plain'],
    ['a terminal with no columns at all', { isTTY: true }, {}, false, false, 'plain'],
    ['not a terminal', { isTTY: false, columns: 80 }, {}, false, false, 'plain'],
    ['CI', { isTTY: true, columns: 80 }, { CI: 'true' }, false, false, 'plain'],
    ['-q', { isTTY: true, columns: 80 }, {}, true, false, 'none'],
    ['--dry-run', { isTTY: true, columns: 80 }, {}, false, true, 'none'],
  ];
  for (const [title, stream, env, quiet, dryRun, mode] of table) assert.equal(detectProgressMode(quiet, dryRun, stream, env), mode, title);
});
