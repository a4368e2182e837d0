/**
 * After the run (the webServer is stopped by then): a green run removes the server's temp DATA_DIR; a failed one keeps
 * it and prints the end of the server log and where the whole log is.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter } from '@playwright/test/reporter';

export default class ServerLogReporter implements Reporter {
  printsToStdio(): boolean {
    return false;
  }

  onEnd(result: FullResult): void {
    const dataDir = process.env.E2E_DATA_DIR;
    if (!dataDir) return;
    if (result.status === 'passed') {
      fs.rmSync(dataDir, { recursive: true, force: true });
      return;
    }
    const log = path.join(dataDir, 'server.log');
    const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
    if (text) console.error(`e2e: end of the server log:\n${text.slice(-4000)}`);
    console.error(`e2e: server log kept at ${log}`);
  }
}
