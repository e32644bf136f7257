// Tests read the client build that pretest made and never rebuild it while other files run beside them
// (tests/support/clientBuild.ts): a rebuild removed public/build under two running files in a full run.
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientBuildManifest, clientManifestPath } from '../support/clientBuild.ts';

describe('the client build in tests', () => {
  it('is read as it is, not built again, when it exists', () => {
    clientBuildManifest();
    const before = statSync(clientManifestPath, { bigint: true });
    const manifest = clientBuildManifest();
    const after = statSync(clientManifestPath, { bigint: true });
    expect(after.mtimeNs).toBe(before.mtimeNs);
    expect(after.ino).toBe(before.ino);
    expect(Object.keys(manifest.islands).length).toBeGreaterThan(0);
  });
});
