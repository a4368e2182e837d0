// The custom-elements manifest lists the public API only: private and protected members (internal state, controllers)
// are dropped, so the manifest, the README and the React wrapper describe the same surface (src/manifest.test.ts).
export default {
  plugins: [
    {
      name: 'public-api-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const d of mod.declarations ?? [])
            if (d.members) d.members = d.members.filter((m) => !m.privacy || m.privacy === 'public');
        }
      },
    },
  ],
};
