// Package op is the typed operation: what one Table API request, or one
// part of a $batch, asks of an account. The REST layer decodes a request
// into an Operation once; authorization judges that value; Execute runs it
// against the store; the playground renders SDK-shaped requests and code
// from it. Every layer reads a kind's row in the table of kinds (Spec)
// rather than naming kinds: adding an operation means one new Kind and its
// row here, and its case in Execute.
package op
