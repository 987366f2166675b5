// Package xmlbody reads and writes the Table service's XML bodies: a
// table's stored access policies (Get and Set Table ACL), the service
// properties, the service stats and the error body of those endpoints.
//
// The reader takes the two documents the service reads with the rules of
// Go's encoding/xml, and the writer escapes text as encoding/xml does; both
// are written here so that the browser build does not link encoding/xml,
// and fuzz targets hold them to it. A document's nesting is bounded before
// it is read.
package xmlbody
