import { Outlet, createRootRoute } from '@tanstack/react-router';
import { Loading } from '../features/shell/Loading';
import { NotFound } from '../features/shell/NotFound';

export const Route = createRootRoute({
  component: Outlet,
  pendingComponent: Loading,
  notFoundComponent: NotFound,
});
