/** Writes the schema's SDL to packages/shared/schema.graphql (the contract). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSdl } from '../graphql/schema.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/schema.graphql');
fs.writeFileSync(target, printSdl());
console.log(`wrote ${target}`);
