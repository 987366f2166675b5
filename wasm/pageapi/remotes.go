package pageapi

import (
	"encoding/json"
	"strconv"

	"github.com/tableplay/tableplay/core/play"
)

// maxRemotes bounds the connections a page holds at once (it needs one;
// a few allow a reconnect before the old one is dropped).
const maxRemotes = 8

// remotes are the connections to Table endpoints outside the engine
// (web/connect.js). A key or SAS stays in this Go instance's memory until
// disconnect.
type remotes struct {
	by   map[string]*play.Remote
	next int
}

// connect checks an endpoint with its key or SAS and answers {id,
// endpoint, account, auth} or {error}.
func connect(c *Call) string {
	var conn play.Connection
	if err := json.Unmarshal(c.Bytes(0), &conn); err != nil {
		return errJSON("not a connection: " + err.Error())
	}
	rs := &c.Env.remotes
	if len(rs.by) >= maxRemotes {
		return errJSON("too many connections: disconnect one first")
	}
	r, err := play.Connect(conn, c.Env.Clock)
	if err != nil {
		return errJSON(err.Error())
	}
	if rs.by == nil {
		rs.by = map[string]*play.Remote{}
	}
	rs.next++
	id := "remote" + strconv.Itoa(rs.next)
	rs.by[id] = r
	return answer(map[string]string{"id": id, "endpoint": r.Endpoint, "account": r.Account, "auth": r.Auth})
}

func disconnect(c *Call) string {
	delete(c.Env.remotes.by, c.ID)
	return ""
}

// remoteRequest builds an operation's request for the endpoint, signed
// with the key (Shared Key Lite) or carrying the SAS, for the page to send
// with fetch; remoteCode generates the code that runs against it.
func remoteRequest(c *Call) string { return string(c.Remote.API.RequestFor(c.Bytes(0))) }
func remoteCode(c *Call) string {
	return string(c.Remote.CodeIn(c.Env.locale.loc, c.Bytes(0), c.Str(1)))
}

// readExchange and compareAnswers read answers the page fetched.
func readExchange(c *Call) string {
	return string(play.Answered(c.Bytes(0), c.Bytes(1)))
}
func compareAnswers(c *Call) string { return string(play.Compare(c.Bytes(0))) }
