// Package op is the typed operation: what one Table API request, or one
// part of a $batch, asks of an account. The REST layer decodes a request
// into an Operation once; authorization judges that value; Execute runs it
// against the store; the playground renders SDK-shaped requests and code
// from it. Adding an operation means one new Kind here and one case per
// layer.
package op
