import { describe, expect, it } from 'vitest';
import { base64ToBytes } from './download-file.js';

describe('report download', () => {
  it('reports decode base64 to the file bytes', () => {
    expect(new TextDecoder().decode(base64ToBytes(btoa('a,b\n1,2\n')))).toBe('a,b\n1,2\n');
  });
});
