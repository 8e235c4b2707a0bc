// `npm run dev`: the same server, with Vite in middleware mode for the pages (hot reload) and the server
// build loaded through Vite on each request. `tsx watch` restarts it when server code changes.
import { createServer } from 'vite';
import { exitOnStartupError } from './lifecycle.ts';
import { startServer } from './main.ts';

startServer({
  pages: async () => {
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    return {
      mode: 'development',
      build: () => vite.ssrLoadModule('virtual:react-router/server-build') as never,
      devMiddleware: vite.middlewares,
    };
  },
}).catch(exitOnStartupError);
