// Not loaded by any page: an entry of the client build that reaches React and nothing else, so that esbuild's code
// splitting puts React and react-dom in a chunk of their own (modules are grouped by the entries that reach them),
// the same bytes whatever the islands share besides, cached once per visit (esbuild.config.mjs manifest.react).
import 'react';
import 'react/jsx-runtime';
import 'react-dom/client';
