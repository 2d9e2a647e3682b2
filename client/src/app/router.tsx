import { lazy } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { PATHS, ROUTE_PATTERNS } from "../config/paths";
import AboutPage from "../features/about/about-page";
import ContactPage from "../features/contact/contact-page";
import HomePage from "../features/home/home-page";
import PrivacyPage from "../features/legal/privacy-page";
import TermsPage from "../features/legal/terms-page";
import PremiumPage from "../features/premium/premium-page";
import ImageToolsPage from "../features/tools-index/image-tools-page";
import ToolsPage from "../features/tools-index/tools-page";
import { LANGUAGE_CODES } from "../lib/contract";
import { RootLayout } from "./root-layout";
import { RouteError } from "./route-error";
import { ToolRoute } from "./tool-route";

const BlogListPage = lazy(() => import("../features/blog/blog-list-page"));
const BlogPostPage = lazy(() => import("../features/blog/blog-post-page"));

/** The screens of spec §2 under one prefix ("" or "/de"). */
function screens(prefix: string): RouteObject[] {
  const at = (path: string) => (path === "/" ? prefix || "/" : `${prefix}${path}`);
  return [
    { path: at(PATHS.home), element: <HomePage /> },
    { path: at(PATHS.about), element: <AboutPage /> },
    { path: at(PATHS.tools), element: <ToolsPage /> },
    { path: at(PATHS.imageTools), element: <ImageToolsPage /> },
    { path: at(ROUTE_PATTERNS.tool), element: <ToolRoute /> },
    { path: at(PATHS.blog), element: <BlogListPage /> },
    { path: at(ROUTE_PATTERNS.blogTag), element: <BlogListPage /> },
    { path: at(ROUTE_PATTERNS.blogPost), element: <BlogPostPage /> },
    { path: at(PATHS.contact), element: <ContactPage /> },
    { path: at(PATHS.privacy), element: <PrivacyPage /> },
    { path: at(PATHS.terms), element: <TermsPage /> },
    { path: at(PATHS.premium), element: <PremiumPage /> },
  ];
}

/** Every route unprefixed and under each language; any other path redirects to / (replacing history). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      ...screens(""),
      ...LANGUAGE_CODES.flatMap((code) => screens(`/${code}`)),
      { path: "*", element: <Navigate to={PATHS.home} replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
