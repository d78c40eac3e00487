/** scripts/ensure-deps.mjs turns npm ci's refusal (a hundred lines of npm errors) into one line. */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { refusalReason } from '../../scripts/ensure-deps.mjs';

describe('npm ci refusal', () => {
  it("counts the other platforms' packages the lock does not list", () => {
    const log = [
      'npm error code EUSAGE',
      'npm error',
      '`npm ci` can only install packages when your package.json and package-lock.json are in sync.',
      'npm error Missing: @biomejs/cli-darwin-arm64@ from lock file',
      'npm error Missing: @rollup/rollup-android-arm-eabi@4.68.7 from lock file',
      'npm error Missing: @rollup/rollup-win32-x64-msvc@ from lock file',
      'npm error Clean install a project',
    ].join('\n');
    expect(refusalReason(log)).toBe(
      'the lock does not list 3 optional package(s) for other platforms, e.g. @biomejs/cli-darwin-arm64',
    );
  });

  it('otherwise gives the first npm error line that says something', () => {
    const log =
      'npm error code EUSAGE\nnpm error\nnpm error The `npm ci` command can only install with an existing lock file.\n';
    expect(refusalReason(log)).toBe('The `npm ci` command can only install with an existing lock file.');
    expect(refusalReason('')).toBe('see npm ci');
  });
});
