/** The site's absolute base URL: PUBLIC_URL when configured, else the origin the request came to. */
export function siteBaseUrl(publicUrl: string | undefined, request: Request): string {
  return publicUrl ?? new URL(request.url).origin;
}
