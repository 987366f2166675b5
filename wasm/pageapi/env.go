package pageapi

import (
	"encoding/json"
	"time"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/play"
)

// Env is what the functions act on: the engine's accounts, the
// connections to endpoints outside it and the lessons. One Env serves one
// page for its life, one call at a time (the browser's one thread).
type Env struct {
	// Accounts are the engine's accounts.
	Accounts *play.Accounts
	// Clock is the time requests are signed and lessons recorded with.
	Clock   func() time.Time
	remotes remotes
	lessons lessonState
	locale  localeState
}

// New makes the Env for accounts. Its Changed must hear of every change
// to an account (the lesson sessions replay from it).
func New(accounts *play.Accounts, clock func() time.Time) *Env {
	e := &Env{Accounts: accounts, Clock: clock}
	e.lessons.by = &lesson.Accounts{Engine: accounts}
	return e
}

// Changed tells the account's lesson session that its account changed (a
// nil Env, not made yet, ignores it).
func (e *Env) Changed(name string) {
	if e != nil {
		e.lessons.by.Changed(name)
	}
}

// Call is one call of a function: its arguments after the account or
// connection its scope names, and that account or connection.
type Call struct {
	Env *Env
	// Account is the account an Account function acts on.
	Account *play.Account
	// Remote is the connection an Endpoint function acts on (nil when ID
	// names none), and ID its id.
	Remote *play.Remote
	ID     string
	args   []any
}

// Str is argument i when it is a string, else "".
func (c *Call) Str(i int) string {
	if i < len(c.args) {
		if s, ok := c.args[i].(string); ok {
			return s
		}
	}
	return ""
}

// Bytes is Str as bytes.
func (c *Call) Bytes(i int) []byte { return []byte(c.Str(i)) }

// Int is argument i when it is a number, else -1.
func (c *Call) Int(i int) int {
	if i < len(c.args) {
		if f, ok := c.args[i].(float64); ok {
			return int(f)
		}
	}
	return -1
}

// Invoke answers a call of f with args, each a string or a float64 (any
// other value reads as missing). For an Account or Endpoint function the
// first argument names the account or connection; an unknown one answers
// the error, as text for a Nothing answer, else as {"error": …}.
func (e *Env) Invoke(f *Func, args []any) string {
	c := &Call{Env: e, args: args}
	switch f.Scope {
	case Account:
		if c.Account = e.Accounts.Get(c.Str(0)); c.Account == nil {
			return failure(f, play.ErrNoAccount.Error())
		}
		c.args = args[1:]
	case Endpoint:
		// A connection already gone is not an error to disconnect (Nothing).
		c.ID = c.Str(0)
		if c.Remote = e.remotes.by[c.ID]; c.Remote == nil && f.Answer != Nothing {
			return failure(f, "not connected")
		}
		if len(args) > 0 {
			c.args = args[1:]
		}
	}
	return f.Run(c)
}

// Writes says whether a call of f with args (as Invoke takes them) would
// change the account: the loader runs such a call through the keeper.
func (e *Env) Writes(f *Func, args []any) bool {
	switch f.Writes {
	case Always:
		return true
	case ByOperation:
		c := &Call{args: args}
		o, err := play.TypedOperation(c.Bytes(1)) // after the account's name
		return err == nil && o.Kind.Changes()
	}
	return false
}

// failure is msg as f answers an error.
func failure(f *Func, msg string) string {
	if f.Answer == Nothing || f.Answer == Dropped {
		return msg
	}
	return errJSON(msg)
}

func errJSON(msg string) string { return answer(map[string]string{"error": msg}) }

// answer is v as JSON.
func answer(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// describedParam and described are a row as Describe lays it out.
type describedParam struct {
	Name     string `json:"name"`
	Kind     Kind   `json:"kind"`
	Optional bool   `json:"optional,omitempty"`
}

type described struct {
	Name   string           `json:"name"`
	Key    string           `json:"key"`
	Params []describedParam `json:"params"`
	Scope  Scope            `json:"scope"`
	Writes Writes           `json:"writes,omitempty"`
	Answer Answer           `json:"answer,omitempty"`
	Field  string           `json:"field,omitempty"`
}

// Describe is the rows as the loader reads them (JSON; the enums as their
// numbers, which web/api.js names).
func Describe() string {
	out := make([]described, len(Funcs))
	for i := range Funcs {
		f := &Funcs[i]
		d := described{Name: f.Name, Key: f.Key(), Params: []describedParam{}, Scope: f.Scope, Writes: f.Writes, Answer: f.Answer, Field: f.Field}
		for _, p := range f.Params {
			d.Params = append(d.Params, describedParam{p.Name, p.Kind, p.Optional})
		}
		out[i] = d
	}
	return answer(out)
}
