import { isValidElement, type ReactNode } from "react";
import { matchRoutes, type Params, type RouteObject } from "react-router";
import { LANGUAGE_CODES } from "../../../contract/languages.ts";
import { PATHS, ROUTE_PATTERNS } from "../config/paths";
import Home from "../features/home/home-page";
import { lazyPage, pageWithReady, preloadable } from "./page-ready";
import { RootLayout } from "./root-layout";
import { RouteError } from "./route-error";
import { ToolRoute } from "./tool-route";

/*
 * Only the home page is in the first load; every other page is its own chunk (prerendered HTML shows
 * it before the chunk arrives, and hydration waits for it: preloadRoute).
 */
const HomePage = pageWithReady(Home);
const AboutPage = lazyPage(() => import("../features/about/about-page"));
const ContactPage = lazyPage(() => import("../features/contact/contact-page"));
const PrivacyPage = lazyPage(() => import("../features/legal/privacy-page"));
const TermsPage = lazyPage(() => import("../features/legal/terms-page"));
const PremiumPage = lazyPage(() => import("../features/premium/premium-page"));
const ImageToolsPage = lazyPage(() => import("../features/tools-index/image-tools-page"));
const ToolsPage = lazyPage(() => import("../features/tools-index/tools-page"));
const QueryLayout = preloadable(() => import("./query-layout"));
const BlogListPage = lazyPage(() => import("../features/blog/blog-list-page"));
const BlogPostPage = lazyPage(() => import("../features/blog/blog-post-page"));
const NotFoundPage = lazyPage(() => import("../features/not-found/not-found-page"));

/** The screens of spec §2 under one prefix ("" or "/de"). */
function screens(prefix: string): RouteObject[] {
  const at = (path: string) => (path === "/" ? prefix || "/" : `${prefix}${path}`);
  return [
    { path: at(PATHS.home), element: <HomePage /> },
    { path: at(PATHS.about), element: <AboutPage /> },
    { path: at(PATHS.tools), element: <ToolsPage /> },
    { path: at(PATHS.imageTools), element: <ImageToolsPage /> },
    { path: at(ROUTE_PATTERNS.tool), element: <ToolRoute /> },
    {
      element: <QueryLayout />,
      children: [
        { path: at(PATHS.blog), element: <BlogListPage /> },
        { path: at(ROUTE_PATTERNS.blogTag), element: <BlogListPage /> },
        { path: at(ROUTE_PATTERNS.blogPost), element: <BlogPostPage /> },
      ],
    },
    { path: at(PATHS.contact), element: <ContactPage /> },
    { path: at(PATHS.privacy), element: <PrivacyPage /> },
    { path: at(PATHS.terms), element: <TermsPage /> },
    { path: at(PATHS.premium), element: <PremiumPage /> },
  ];
}

/** Every route unprefixed and under each language; any other path is the not-found page (404 from the Worker). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      ...screens(""),
      ...LANGUAGE_CODES.flatMap((code) => screens(`/${code}`)),
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

/** The code an element of a route waits for (app/page-ready.tsx, preloadable; app/tool-route.tsx). */
function preloadElement(element: ReactNode, params: Params): Promise<unknown> | undefined {
  if (!isValidElement(element)) return undefined;
  const type = element.type as { preload?: (params: Params) => Promise<unknown> };
  return typeof type.preload === "function" ? type.preload(params) : undefined;
}

/**
 * Loads every module the page at `pathname` renders (its layouts, page and tool screen): the
 * prerender (entry-server.tsx) and the browser, before hydrating (main.tsx), call it so the page
 * renders complete, with no Suspense fallback in the HTML and no second pass while hydrating.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matches.map(({ route, params }) => preloadElement(route.element, params)));
}
