import type { WebContext } from '../server/web-context.ts';

// Every loader and action receives the server's WebContext (services, who is signed in, client address).
declare module 'react-router' {
  interface AppLoadContext extends WebContext {}
}
