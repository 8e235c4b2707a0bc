import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  // The spec sends people to /home after a session expires; it is the home page under a second address.
  route('home', 'routes/home.tsx', { id: 'home-alias' }),
  route('login', 'routes/login.tsx'),
  route('regist', 'routes/regist.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
