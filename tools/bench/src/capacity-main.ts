#!/usr/bin/env node
import { describeError } from '@tickertape/errors';
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { capacityDocument } from '@tickertape/capacity';
import { printReport } from './output.js';

/**
 * `capacity <benchmarks.json> <capacity.md> [benchmarks-reads.json]`: writes the capacity model
 * generated from the JSON, with the read side when the read load's JSON is given.
 */
async function main(): Promise<void> {
  const [jsonPath, docPath, readsPath] = process.argv.slice(2);
  if (jsonPath === undefined || docPath === undefined) {
    throw new Error('usage: capacity <benchmarks.json> <capacity.md> [benchmarks-reads.json]');
  }
  // The doc names its sources relative to the repository root, wherever the command ran.
  const source = relative(process.cwd(), jsonPath);
  const doc = await capacityDocument(await readFile(jsonPath, 'utf8'), {
    source,
    docPath,
    ...(readsPath === undefined
      ? {}
      : {
          readsJsonText: await readFile(readsPath, 'utf8'),
          readsSource: relative(process.cwd(), readsPath),
        }),
  });
  await writeFile(docPath, doc);
  printReport(`capacity: wrote ${docPath} from ${source}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`capacity: ${describeError(err)}\n`);
  process.exitCode = 1;
});
