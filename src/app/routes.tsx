import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import { AppRoot } from './app-root';
import { AuthGate, PublicOnly, RouteScreen } from './guards';
import { HomePage } from './home-page';
import { appRoutes } from './route-table';
import { NotFoundPage, RouteErrorPage } from './status-pages';

const LoginPage = lazy(() => import('../features/auth/login-page'));
const LoginLinkPage = lazy(() => import('../features/auth/login-link-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const RegisterPage = lazy(() => import('../features/auth/register-page'));
const PlanWidgetPage = lazy(() => import('../features/payment/plan-widget-page'));
const WidgetConfirmPage = lazy(() => import('../features/payment/widget-confirm-page'));
const PaymentGate = lazy(() => import('./payment-gate').then((m) => ({ default: m.PaymentGate })));

/** The route tree, built from the route table (used by the browser router and by tests). */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      element: <AppRoot />,
      errorElement: <RouteErrorPage />,
      children: [
        {
          path: 'login',
          element: (
            <PublicOnly>
              <LoginPage />
            </PublicOnly>
          ),
        },
        // The sign-in link of a customer's e-mail (LOGIN_LINK_PATH): it opens a session, whoever
        // was signed in on this browser before.
        { path: 'login/link', element: <LoginLinkPage /> },
        {
          path: 'register',
          element: (
            <PublicOnly>
              <RegisterPage />
            </PublicOnly>
          ),
        },
        { path: 'reset-password', element: <ResetPasswordPage /> },
        { path: 'payment', element: <PaymentGate /> },
        { path: 'payment/process', element: <PaymentGate /> },
        // The plan's embeddable widget (PLAN_WIDGET_PATH): public, no chrome, framed by other sites.
        { path: 'widget/plan', element: <PlanWidgetPage /> },
        // The link the widget e-mails (WIDGET_CONFIRM_PATH): confirms, then goes to /payment.
        { path: 'widget/confirm', element: <WidgetConfirmPage /> },
        {
          path: '/',
          element: <AuthGate />,
          children: [
            { index: true, element: <HomePage /> },
            ...appRoutes
              .filter((route) => route.path !== '/')
              .map((route) => ({
                path: route.path.slice(1),
                element: <RouteScreen route={route} />,
              })),
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}
