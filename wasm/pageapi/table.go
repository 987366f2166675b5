// Package pageapi is the page's API, window.tableplay, as one table: each
// function the engine offers the page is one row of Funcs, read by the
// browser build's registration (wasm/api.go), by the page's loader that
// builds the JS object from the rows (web/api.js, through Describe), and by
// the test that holds docs/api.md to them. Adding a function is one row and
// one Go function.
package pageapi

// Func is one function of window.tableplay.
type Func struct {
	// Name is its name in JS (on the object its Scope puts it on).
	Name string
	// Params are its parameters in order, as the JS function takes them.
	Params []Param
	// Scope says which object holds it and what its first engine argument is.
	Scope Scope
	// Writes says how it changes the account it is bound to.
	Writes Writes
	// Answer is what the JS function makes of the engine's answer.
	Answer Answer
	// Field, for a JSON answer, is the one member the JS function returns.
	Field string
	// Run answers a call: the arguments after the account or connection
	// the scope names (which the call carries).
	Run func(c *Call) string
}

// Param is one named parameter.
type Param struct {
	Name string
	Kind Kind
	// Optional parameters default to "" (text) when left out.
	Optional bool
}

// Kind is how the loader passes a parameter to the engine.
type Kind uint8

// The kinds of parameter.
const (
	Text   Kind = iota // String(value)
	JSON               // JSON.stringify(value ?? null)
	Doc                // a string as it is, anything else as JSON
	Number             // Number(value)
)

// Scope is where a function lives and what it acts on.
type Scope uint8

// The scopes.
const (
	// Engine functions answer the same for every account: they are on the
	// page's object, on every account's (tableplay.account(name)) and in
	// tableplay.stateless.
	Engine Scope = iota
	// Account functions act on one account, the one their object is bound
	// to; the loader passes its name first.
	Account
	// Endpoint functions act on a connection to a Table endpoint outside
	// the engine: they are on the object connect returns, which passes its
	// id first.
	Endpoint
	// Instance functions manage the engine instance itself (its accounts,
	// connections and memory): on the page's object only.
	Instance
)

// Writes says how a function changes the account it acts on.
type Writes uint8

// The ways of writing.
const (
	// Reads changes nothing.
	Reads Writes = iota
	// Always is a write of the person's: on the page's kept account the
	// loader runs it through the keeper (tableplay.keepWrites), inside the
	// tab's store transaction, and the function answers a Promise.
	Always
	// ByOperation is Always when the call's operation (its first
	// parameter) changes the account (op.Kind.Changes), else Reads.
	ByOperation
	// Replaces puts a whole state in place (reset, restore, a change
	// record from another tab): the account store's own tools, which it
	// calls inside its transaction itself, so never through the keeper.
	Replaces
)

// Answer is what the JS function makes of the engine's string.
type Answer uint8

// The answers.
const (
	// Parsed is the JSON answer parsed (or its Field).
	Parsed Answer = iota
	// Nothing is an answer of "" on success; any other text is thrown as
	// an Error.
	Nothing
	// Connection is connect's {id, endpoint, account, auth} (or {error},
	// thrown) with the Endpoint functions bound to it.
	Connection
	// NewAccount is createAccount's {name} (or {error}, thrown): the loader
	// resolves with that account's functions once the engine is ready.
	NewAccount
	// Dropped is Nothing, and the loader forgets the account named first.
	Dropped
)

// Funcs are the rows, in the order docs/api.md lists them.
var Funcs = []Func{
	{Name: "validateTableName", Params: []Param{{"name", Text, false}}, Run: validateTableName},
	{Name: "validateEntity", Params: []Param{{"draft", JSON, false}}, Run: validateEntity},
	{Name: "previewEntity", Scope: Account, Params: []Param{{"draft", JSON, false}, {"table", Text, false}, {"level", Text, true}}, Run: previewEntity},
	{Name: "explainFilter", Scope: Account, Params: []Param{{"text", Text, false}, {"table", Text, true}}, Run: explainFilter},
	{Name: "decodeContinuation", Params: []Param{{"operation", JSON, false}}, Run: decodeContinuation},
	{Name: "filterLiteral", Params: []Param{{"type", Text, false}, {"text", Text, false}}, Run: filterLiteral},
	{Name: "filterExample", Params: []Param{{"draft", JSON, false}}, Field: "filter", Run: filterExample},
	{Name: "requestFor", Scope: Account, Params: []Param{{"operation", JSON, false}}, Run: requestFor},
	{Name: "codeFor", Scope: Account, Params: []Param{{"operation", JSON, false}, {"language", Text, false}, {"target", JSON, true}}, Run: codeFor},
	{Name: "exportCSV", Scope: Account, Params: []Param{{"table", Text, false}, {"filter", Text, true}}, Run: exportCSV},
	{Name: "importCSV", Scope: Account, Writes: Always, Params: []Param{{"table", Text, false}, {"text", Text, false}}, Run: importCSV},
	{Name: "draftBody", Params: []Param{{"draft", JSON, false}}, Field: "body", Run: draftBody},
	{Name: "parseBody", Params: []Param{{"json", Text, false}}, Run: parseBody},
	{Name: "readEntities", Params: []Param{{"body", Text, false}}, Run: readEntities},
	{Name: "readError", Params: []Param{{"body", Text, false}}, Run: readError},
	{Name: "readTables", Params: []Param{{"body", Text, false}}, Run: readTables},
	{Name: "checkBatch", Params: []Param{{"operations", JSON, false}}, Run: checkBatch},
	{Name: "readBatch", Params: []Param{{"contentType", Text, false}, {"body", Text, false}}, Run: readBatch},
	{Name: "queryStats", Scope: Account, Params: []Param{{"operation", JSON, false}}, Run: queryStats},
	{Name: "queryPicture", Scope: Account, Params: []Param{{"operation", JSON, false}}, Run: queryPicture},
	{Name: "reset", Scope: Account, Writes: Replaces, Answer: Nothing, Run: reset},
	{Name: "snapshot", Scope: Account, Run: snapshot},
	{Name: "restore", Scope: Account, Writes: Replaces, Answer: Nothing, Params: []Param{{"doc", Doc, false}}, Run: restore},
	{Name: "changes", Scope: Account, Run: changes},
	{Name: "applyChange", Scope: Account, Writes: Replaces, Answer: Nothing, Params: []Param{{"record", Doc, false}}, Run: applyChange},
	{Name: "lessons", Run: lessonMenu},
	{Name: "lesson", Params: []Param{{"id", Text, false}}, Run: lessonOne},
	{Name: "runLessonStep", Scope: Account, Writes: Replaces, Params: []Param{{"id", Text, false}, {"n", Number, false}}, Run: runLessonStep},
	{Name: "resetLesson", Scope: Account, Writes: Replaces, Params: []Param{{"id", Text, false}, {"n", Number, false}}, Run: resetLesson},
	{Name: "completeLesson", Params: []Param{{"doc", Doc, false}}, Run: completeLesson},
	{Name: "addLesson", Params: []Param{{"doc", Doc, false}}, Run: addLesson},
	{Name: "run", Scope: Account, Writes: ByOperation, Params: []Param{{"operation", JSON, false}}, Run: run},
	{Name: "editBody", Params: []Param{{"text", Text, false}, {"draft", JSON, false}}, Run: editBody},
	{Name: "createAccount", Scope: Instance, Answer: NewAccount, Params: []Param{{"name", Text, true}, {"profile", Text, true}}, Run: createAccount},
	{Name: "dropAccount", Scope: Instance, Answer: Dropped, Params: []Param{{"name", Text, false}}, Run: dropAccount},
	{Name: "profiles", Run: profiles},
	{Name: "differences", Params: []Param{{"concern", Text, true}}, Run: differences},
	{Name: "profile", Scope: Account, Run: accountProfile},
	{Name: "setProfile", Scope: Account, Writes: Replaces, Answer: Nothing, Params: []Param{{"name", Text, false}}, Run: setProfile},
	{Name: "connect", Scope: Instance, Answer: Connection, Params: []Param{{"connection", JSON, false}}, Run: connect},
	{Name: "requestFor", Scope: Endpoint, Params: []Param{{"operation", JSON, false}}, Run: remoteRequest},
	{Name: "codeFor", Scope: Endpoint, Params: []Param{{"operation", JSON, false}, {"language", Text, false}}, Run: remoteCode},
	{Name: "disconnect", Scope: Endpoint, Answer: Nothing, Run: disconnect},
	{Name: "readExchange", Params: []Param{{"request", JSON, false}, {"response", JSON, false}}, Run: readExchange},
	{Name: "compareAnswers", Params: []Param{{"input", JSON, false}}, Run: compareAnswers},
	{Name: "memory", Scope: Instance, Run: memory},
	{Name: "setLocale", Scope: Instance, Answer: Nothing, Params: []Param{{"lang", Text, false}, {"rules", Doc, false}, {"lessons", Doc, true}}, Run: setLocale},
}

// Key is the row's name on the engine's binding: its Name, made unique for
// the functions of a connection (which share names with an account's).
func (f *Func) Key() string {
	if f.Scope == Endpoint {
		return "remote." + f.Name
	}
	return f.Name
}
