import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProvider, createQueryClient } from '@/app/provider';

/** Renders routes inside the real providers with a fresh query cache and an in-memory history. */
export function renderRoutes(routes: RouteObject[], initialEntries: string[] = ['/']) {
  const router = createMemoryRouter(routes, { initialEntries });
  const queryClient = createQueryClient();
  const view = render(
    <AppProvider client={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function okEnvelope(data: unknown): Response {
  return jsonResponse({ code: 1000, data, model: null, count: 0, index: null });
}

export function failEnvelope(code: number, message: string, status: number): Response {
  return jsonResponse({ code, data: message, msg: message, model: null, count: 0, index: null }, status);
}
