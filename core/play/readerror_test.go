package play

import "testing"

// TestReadError reads the code and message of the service's error answers,
// without the RequestId and Time lines; any other body gives neither.
func TestReadError(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	for body, want := range map[string][2]string{
		`{"odata.error":{"code":"OutOfRangeInput","message":{"lang":"en-US","value":"The 'RowKey' parameter of value 'a/b' is out of range.\nRequestId:1\nTime:2026-11-22T12:00:00.0000000Z"}}}`: {"OutOfRangeInput", "The 'RowKey' parameter of value 'a/b' is out of range."},
		`{"value":[]}`: {"", ""},
		`not json`:     {"", ""},
	} {
		got := decode[map[string]string](t, a.ReadError(body))
		if got["code"] != want[0] || got["message"] != want[1] {
			t.Errorf("%.40s: got %v, want %v", body, got, want)
		}
	}
}
