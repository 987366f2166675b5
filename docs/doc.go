// Package docs holds the project's documentation pages (README.md at the
// root and the Markdown files here); its tests keep their relative links
// whole.
package docs
